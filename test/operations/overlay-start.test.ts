import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { killSystemProcess, startSystemProcess } from '../reliability/system-process';
import { environmentOf, renderOverlay as render, SECRETS } from './rendered-overlay';

/**
 * Every overlay rendered as `kubectl apply -k` would send it, and each of its components started
 * with the environment its Deployment gives it: ConfigMap values as rendered, Secret values made up
 * here (valid keys; MongoDB unreachable, since no server can run on this machine). A service that
 * accepts its settings gets past them to MongoDB and stops naming MONGODB_URI; one refused exits 2
 * naming the setting. The gateway, which keeps nothing, listens with no writable directory.
 */
jest.setTimeout(10 * 60_000);
const ROOT = join(__dirname, '..', '..');
const MAIN = join(ROOT, 'dist', 'main.js');
const SERVICES = ['auth', 'accounts', 'quotes-transactions', 'notifications'];

interface Run {
  code: number | null;
  stderr: string;
  logs: Array<Record<string, unknown>>;
}

/**
 * `node dist/main.js <component>` with only the given environment (and PATH); runs until it exits or `until` says
 * enough.
 */
function run(
  component: string,
  env: Record<string, string>,
  until?: (log: Record<string, unknown>) => boolean,
): Promise<Run & { stop(): void }> {
  // The manifests' metrics port (9464) is fixed; another process on this machine may hold it (deploy-balancing checks
  // the wiring).
  const { METRICS_PORT: _metricsPort, ...settings } = env;
  const child = spawn(process.execPath, [MAIN, component], {
    env: { PATH: process.env.PATH, MONGODB_CONNECT_TIMEOUT_MS: '1000', ...settings },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const result: Run = { code: null, stderr: '', logs: [] };
  child.stderr.on('data', (c) => {
    result.stderr += c;
  });
  return new Promise((resolve) => {
    const done = () => resolve({ ...result, stop: () => child.kill('SIGKILL') });
    createInterface({ input: child.stdout }).on('line', (line) => {
      try {
        result.logs.push(JSON.parse(line));
      } catch {
        return;
      }
      if (until?.(result.logs.at(-1)!)) done();
    });
    child.on('exit', (code) => {
      result.code = code;
      done();
    });
  });
}

const overlays = { base: render('base'), dev: render('overlays/dev'), production: render('overlays/production') };
const MODES = { base: 'sandbox', dev: 'sandbox', production: 'production' };

describe.each(Object.entries(overlays))(
  'the %s overlay, each component started with its own settings',
  (name, objects) => {
    test(`runs GRID_MODE=${MODES[name as keyof typeof MODES]}`, () => {
      for (const component of ['gateway', ...SERVICES]) {
        expect({ component, mode: environmentOf(objects, component).GRID_MODE }).toEqual({
          component,
          mode: MODES[name as keyof typeof MODES],
        });
      }
    });

    test.each(SERVICES)(
      '%s accepts its settings and keys, then stops on the unreachable MongoDB naming MONGODB_URI',
      async (service) => {
        const { code, stderr } = await run(service, environmentOf(objects, service));
        expect({ service, code, stderr: stderr.trim() }).toEqual({
          service,
          code: 1,
          stderr: expect.stringMatching(
            /^cannot start: cannot reach MongoDB at mongodb:\/\/127\.0\.0\.1:1\/ \(MONGODB_URI\) within 1000 ms/,
          ),
        });
      },
    );

    test(
      'the gateway starts with no data directory at all, and '
        + 'answers /livez (and /readyz 503 while no service answers)',
      async () => {
        const gateway = await run('gateway', {
          ...environmentOf(objects, 'gateway'),
          DATA_DIR: '/dev/null/not-a-directory',
        }, (l) => l.msg === 'gateway listening');
        try {
          expect(gateway.code).toBeNull();
          const url = String(gateway.logs.find((l) => l.msg === 'gateway listening')!.url);
          expect((await fetch(`${url}/livez`)).status).toBe(200);
          const ready = await fetch(`${url}/readyz`);
          expect(ready.status).toBe(503);
          expect(await ready.json()).toMatchObject({
            status: 'not ready',
            dependencies: { auth: 'unavailable', accounts: 'unavailable', 'quotes-transactions': 'unavailable' },
          });
        } finally {
          gateway.stop();
        }
      },
    );
  },
);

describe('the production overlay refuses sandbox behaviour, naming the setting', () => {
  const production = overlays.production;
  test.each([
    ['auth', 'EMBEDDED_WALLET_SANDBOX'],
    ['accounts', 'ACCOUNTS_SANDBOX'],
    ['quotes-transactions', 'SANDBOX_PAYMENTS_ENABLED'],
    ['notifications', 'WEBHOOK_ALLOW_LOCAL_ENDPOINTS'],
  ])('%s with %s=true exits 2 before waiting for MongoDB', async (service, variable) => {
    const { code, stderr } = await run(service, { ...environmentOf(production, service), [variable]: 'true' });
    expect({ code, stderr: stderr.trim() }).toEqual({
      code: 2,
      stderr: `configuration error: ${variable} turns on sandbox behaviour, `
        + 'which GRID_MODE=production refuses: unset it or set it to false',
    });
  });

  test.each([
    ['quotes-transactions', 'SANDBOX_SETTLEMENT_STEP_MS'],
    ['accounts', 'ACCOUNTS_KYC_STEP_MS'],
    ['accounts', 'ACCOUNTS_SANDBOX_LIVENESS_DELAY_MS'],
  ])('%s with the simulator tuning %s set exits 2 before waiting for MongoDB', async (service, variable) => {
    const { code, stderr } = await run(service, { ...environmentOf(production, service), [variable]: '10' });
    expect({ code, stderr: stderr.trim() }).toEqual({
      code: 2,
      stderr:
        `configuration error: ${variable} tunes a sandbox simulator, which GRID_MODE=production refuses: unset it`,
    });
  });

  test(
    'quotes-transactions with STABLECOIN_PROVIDER=sandbox exits 2 '
      + '(production needs a real provider: brale, its default there)',
    async () => {
      const { code, stderr } = await run('quotes-transactions', {
        ...environmentOf(production, 'quotes-transactions'),
        STABLECOIN_PROVIDER: 'sandbox',
      });
      expect({ code, stderr: stderr.trim() }).toEqual({
        code: 2,
        stderr: 'configuration error: STABLECOIN_PROVIDER is sandbox, a simulator, '
          + 'which GRID_MODE=production refuses: choose a real provider (brale)',
      });
    },
  );

  test(
    'quotes-transactions with SETTLEMENT_RAIL=sandbox exits 2 '
      + "(production settles on the operator's rail, its default there)",
    async () => {
      const { code, stderr } = await run('quotes-transactions', {
        ...environmentOf(production, 'quotes-transactions'),
        SETTLEMENT_RAIL: 'sandbox',
      });
      expect({ code, stderr: stderr.trim() }).toEqual({
        code: 2,
        stderr: 'configuration error: SETTLEMENT_RAIL is sandbox, a simulator, which '
          + 'GRID_MODE=production refuses: choose a real provider (operator)',
      });
    },
  );

  test(
    'quotes-transactions with CARD_ISSUER=sandbox exits 2 (production '
      + 'has no simulated issuer; without a real one cards are refused)',
    async () => {
      const { code, stderr } = await run('quotes-transactions', {
        ...environmentOf(production, 'quotes-transactions'),
        CARD_ISSUER: 'sandbox',
      });
      expect({ code, stderr: stderr.trim() }).toEqual({
        code: 2,
        stderr: 'configuration error: CARD_ISSUER is sandbox, a simulator, which '
          + 'GRID_MODE=production refuses: choose a real provider (none)',
      });
    },
  );

  test.each([
    ['auth', 'API_SECRET_PEPPER'],
    ['auth', 'WALLET_STORAGE_KEY'],
    ['accounts', 'ACCOUNTS_PII_KEY'],
    ['notifications', 'WEBHOOK_SIGNING_PRIVATE_KEY'],
    ['quotes-transactions', 'STABLECOIN_SECRET_KEY'],
    ['quotes-transactions', 'CARDS_DATA_KEY'],
  ])(
    '%s without %s exits 2 at once (keys come from configuration, nothing is generated)',
    async (service, variable) => {
      const env = environmentOf(production, service);
      delete env[variable];
      const { code, stderr } = await run(service, env);
      expect({ code, stderr: stderr.trim() }).toEqual({
        code: 2,
        stderr: expect.stringMatching(
          new RegExp(`^configuration error: ${variable} is required when MONGODB_URI is set`),
        ),
      });
    },
  );

  test('notifications without MESSAGE_DELIVERY_URL exits 2 (messages would never leave the pod)', async () => {
    const { code, stderr } = await run('notifications', {
      ...environmentOf(production, 'notifications'),
      MESSAGE_DELIVERY_URL: '',
    });
    expect({ code, stderr: stderr.trim() }).toEqual({
      code: 2,
      stderr: expect.stringMatching(/^configuration error: MESSAGE_DELIVERY_URL is required with GRID_MODE=production/),
    });
  });

  test.each([
    [
      'ACCOUNTS_UMA_DOMAIN',
      'uma.sandbox.local',
      new RegExp(
        "^configuration error: ACCOUNTS_UMA_DOMAIN is uma\\.sandbox\\.local, the sandbox's placeholder, "
          + 'which GRID_MODE=production refuses',
      ),
    ],
    [
      'ACCOUNTS_END_USER_TERMS_URL',
      '',
      /^configuration error: ACCOUNTS_END_USER_TERMS_URL is required with GRID_MODE=production/,
    ],
    [
      'ACCOUNTS_END_USER_TERMS_URL',
      'https://grid.sandbox.local/legal/end-user-terms/V1',
      /^configuration error: ACCOUNTS_END_USER_TERMS_URL is on grid\.sandbox\.local, the sandbox's placeholder/,
    ],
  ])(
    'accounts with %s=%j exits 2 (customers would be shown a sandbox placeholder)',
    async (variable, value, message) => {
      const { code, stderr } = await run('accounts', { ...environmentOf(production, 'accounts'), [variable]: value });
      expect({ code, stderr: stderr.trim() }).toEqual({ code: 2, stderr: expect.stringMatching(message) });
    },
  );

  test('the gateway with the published sandbox secret exits 2', async () => {
    const { code, stderr } = await run('gateway', {
      ...environmentOf(production, 'gateway'),
      SANDBOX_API_CLIENT_SECRET: 'sandbox-secret-0000000000',
    });
    expect({ code, stderr: stderr.trim() }).toEqual({
      code: 2,
      stderr: expect.stringMatching(/^configuration error: SANDBOX_API_CLIENT_SECRET is the published sandbox secret/),
    });
  });

  test('an INTERNAL_TOKEN shorter than 32 bytes is refused', async () => {
    const { code, stderr } = await run('gateway', { ...environmentOf(production, 'gateway'), INTERNAL_TOKEN: 'x' });
    expect({ code, stderr: stderr.trim() }).toEqual({
      code: 2,
      stderr: 'configuration error: INTERNAL_TOKEN must be at least 32 bytes (e.g. `openssl rand -base64 48`)',
    });
  });
});

test(
  'GRID_MODE=production all-in-one: keys from configuration, nothing generated; /sandbox '
    + "money and card routes answer 403 FORBIDDEN (the reference's answer to a production "
    + 'token); the hosted KYC page has no simulator; cards are refused without an issuer',
  async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'grid-production-mode-'));
    const keys = {
      API_SECRET_PEPPER: SECRETS.API_SECRET_PEPPER,
      ACCOUNTS_PII_KEY: SECRETS.ACCOUNTS_PII_KEY,
      WALLET_STORAGE_KEY: SECRETS.WALLET_STORAGE_KEY,
      WALLET_ENCLAVE_PRIVATE_KEY: SECRETS.WALLET_ENCLAVE_PRIVATE_KEY,
      WEBHOOK_SIGNING_PRIVATE_KEY: SECRETS.WEBHOOK_SIGNING_PRIVATE_KEY,
      STABLECOIN_SECRET_KEY: SECRETS.STABLECOIN_SECRET_KEY,
      CARDS_DATA_KEY: SECRETS.CARDS_DATA_KEY,
    };
    const secret = SECRETS.SANDBOX_API_CLIENT_SECRET;
    const system = await startSystemProcess({
      GRID_MODE: 'production',
      DATA_DIR: dataDir,
      SANDBOX_API_CLIENT_SECRET: secret,
      MESSAGE_DELIVERY_URL: 'http://127.0.0.1:9/messages',
      ACCOUNTS_UMA_DOMAIN: 'uma.example.com',
      ACCOUNTS_END_USER_TERMS_URL: 'https://example.com/terms',
      ...keys,
    });
    try {
      // no keys/ folder
      expect(readdirSync(dataDir).filter((f) => !/\.(sqlite|lock)(-wal|-shm)?$/.test(f))).toEqual([]);
      const auth = `Basic ${Buffer.from(`sandbox-token:${secret}`).toString('base64')}`;
      const calls: Array<[string, object]> = [
        ['/sandbox/send', {
          quoteId: 'Quote:00000000-0000-4000-8000-000000000001',
          currencyCode: 'USD',
          currencyAmount: 100,
        }],
        ['/sandbox/uma/receive', {
          senderUmaAddress: '$alice@uma.example',
          receiverUmaAddress: '$bob@uma.example',
          customerId: 'Customer:00000000-0000-4000-8000-000000000001',
          receivingCurrencyCode: 'USD',
          receivingCurrencyAmount: 100,
        }],
        ['/sandbox/internal-accounts/InternalAccount:00000000-0000-4000-8000-000000000001/fund', { amount: 100 }],
        ['/sandbox/cards/Card:00000000-0000-4000-8000-000000000001/simulate/authorization', {
          amount: 100,
          currency: { code: 'USD' },
          merchant: { descriptor: 'COFFEE' },
        }],
        ['/sandbox/cards/Card:00000000-0000-4000-8000-000000000001/simulate/clearing', {
          cardTransactionId: 'CardTransaction:00000000-0000-4000-8000-000000000001',
          amount: 100,
        }],
        ['/sandbox/cards/Card:00000000-0000-4000-8000-000000000001/simulate/return', {
          cardTransactionId: 'CardTransaction:00000000-0000-4000-8000-000000000001',
          amount: 100,
        }],
        ...[
          'credit_authorization',
          'financial_authorization',
          'financial_credit_authorization',
          'credit_authorization_advice',
        ].map((
          path,
        ): [string, object] => [`/sandbox/cards/Card:00000000-0000-4000-8000-000000000001/simulate/${path}`, {
          amount: 100,
          currency: { code: 'USD' },
          merchant: { descriptor: 'COFFEE' },
        }]),
        ['/sandbox/cards/Card:00000000-0000-4000-8000-000000000001/simulate/balance_inquiry', {
          merchant: { descriptor: 'COFFEE' },
        }],
        ['/sandbox/cards/Card:00000000-0000-4000-8000-000000000001/simulate/authorization_advice', {
          cardTransactionId: 'CardTransaction:00000000-0000-4000-8000-000000000001',
          amount: 100,
        }],
        ['/sandbox/cards/Card:00000000-0000-4000-8000-000000000001/simulate/return_reversal', {
          cardTransactionId: 'CardTransaction:00000000-0000-4000-8000-000000000001',
        }],
      ];
      for (const [path, body] of calls) {
        const res = await fetch(`${system.rootUrl}/2025-10-13${path}`, {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        expect({ path, status: res.status, body: await res.json() }).toEqual({
          path,
          status: 403,
          body: expect.objectContaining({ status: 403, code: 'FORBIDDEN' }),
        });
      }

      // The hosted KYC page offers no simulated outcome: it submits for review, and a posted outcome is refused.
      const api = async (path: string, body: object) => {
        const res = await fetch(`${system.rootUrl}/2025-10-13${path}`, {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return { status: res.status, body: (await res.json()) as any };
      };
      const customer = await api('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'production-kyc-1' });
      expect(customer.status).toBe(201);
      const link = await api(`/customers/${customer.body.id}/kyc-link`, {});
      expect(link.status).toBe(201);
      const hosted = `${system.rootUrl}${new URL(link.body.kycUrl).pathname}`;
      const page = await (await fetch(hosted)).text();
      expect(page).toContain('value="submit"');
      for (const outcome of ['APPROVE', 'REJECT', 'MANUAL_REVIEW', 'RESOLVE_ERRORS']) {
        expect(page).not.toContain(`value="${outcome}"`);
      }
      const post = (fields: Record<string, string>) =>
        fetch(hosted, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(fields).toString(),
        });
      expect((await post({ outcome: 'APPROVE' })).status).toBe(403);
      const submitted = await post({ action: 'submit' });
      expect(submitted.status).toBe(200);
      expect(await submitted.text()).toContain('Verification submitted');
      const customerNow = async () =>
        ((await (await fetch(`${system.rootUrl}/2025-10-13/customers/${customer.body.id}`, {
          headers: { authorization: auth },
        })).json()) as any).kycStatus as string;
      const deadline = Date.now() + 15_000;
      while ((await customerNow()) === 'UNVERIFIED' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(await customerNow()).toBe('PENDING'); // submitted, waiting for review: nobody approved it
      expect((await post({ action: 'submit' })).status).toBe(404); // the link is used up

      // No card issuer is configured: issuing a card is refused (501) and nothing is provisioned by the simulator.
      const card = await api('/cards', {
        cardholderId: customer.body.id,
        form: 'VIRTUAL',
        fundingSources: ['InternalAccount:00000000-0000-4000-8000-000000000001'],
      });
      expect(card).toEqual({ status: 501, body: expect.objectContaining({ status: 501, code: 'NOT_IMPLEMENTED' }) });
    } finally {
      await killSystemProcess(system, 'SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
);
