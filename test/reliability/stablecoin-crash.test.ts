import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SANDBOX } from '../../gateway/sandbox-bootstrap';
import { externalAccountBody } from '../../services/accounts/test-fixtures/request-bodies';
import { startFakeBrale, type FakeBrale } from '../fixtures/fake-brale-server';
import { basicAuthHeader } from '../system-harness';
import { killSystemProcess, ledgerAudit, startSystemProcess, type SystemProcess } from './system-process';

/**
 * The one-command system on the real Brale adapter, against a fake Brale that outlives it, killed
 * (SIGKILL) while mints are being created, submitted and followed, then started again on the same
 * data: every operation ends in one state, each is exactly one Brale transfer (a crash between our
 * write and the provider call repeats the call under the same Idempotency-Key, never a second
 * mint), and the internal account funding the mints is debited exactly once per completed mint.
 * STABLECOIN_CRASH_KILLS sets the number of kills (3 by default).
 */
const KILLS = Number(process.env.STABLECOIN_CRASH_KILLS ?? 3);
const AUTH = basicAuthHeader(DEFAULT_SANDBOX.tokenId, DEFAULT_SANDBOX.clientSecret);
jest.setTimeout(30 * 60_000);

let fake: FakeBrale;
let system: SystemProcess;
let seq = 0;

async function api(path: string, body?: unknown, key?: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${system.rootUrl}/2025-10-13${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    signal: AbortSignal.timeout(15_000),
    headers: {
      authorization: AUTH,
      ...(body === undefined
        ? {}
        : { 'content-type': 'application/json', 'idempotency-key': key ?? `crash-${process.pid}-${seq++}` }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

test(
  `SIGKILL ${KILLS} times while mints are in flight: each `
    + 'operation is one Brale transfer and the ledger is exact',
  async () => {
    fake = await startFakeBrale({ autoFund: true, createDelayMs: 150 });
    fake.addClient('crash-client', 'crash-secret', ['brale-crash']);
    const dataDir = mkdtempSync(join(tmpdir(), 'grid-stablecoin-crash-'));
    const env = {
      DATA_DIR: dataDir,
      STABLECOIN_PROVIDER: 'brale',
      BRALE_API_URL: fake.apiUrl,
      BRALE_TOKEN_URL: fake.tokenUrl,
      STABLECOIN_POLL_MS: '30',
      STABLECOIN_PROVIDER_TIMEOUT_MS: '3000',
      LEDGER_RECOVERY_AFTER_MS: '500',
      GATEWAY_RATE_LIMIT_REQUESTS: '100000000',
    };
    system = await startSystemProcess(env);
    try {
      const link = await api('/stablecoin-provider-accounts', {
        provider: 'BRALE',
        apiClientId: 'crash-client',
        apiClientSecret: 'crash-secret',
      });
      expect(link.status).toBe(201);
      const coin = (await api('/stablecoins', {
        providerTokenIdentifier: 'ACME',
        networkTokenIdentifier: 'btkn1acme',
        network: 'SPARK',
      })).body;
      const wallet = (await api('/platform/external-accounts', externalAccountBody('SPARK_WALLET'))).body.id as string;
      fake.addAddress('brale-crash', wallet, ['spark']);
      const usd = (await api('/platform/internal-accounts?currency=USD')).body.data.find((a: any) =>
        a.balance.currency.code === 'USD'
      ).id as string;
      expect((await api(`/sandbox/internal-accounts/${usd}/fund`, { amount: 10_000_000 })).status).toBe(200);
      const startBalance = (await api('/platform/internal-accounts?currency=USD')).body.data.find((a: any) =>
        a.id === usd
      ).balance.amount as number;

      // Mints are created without pause while the system is killed; the Brale answers slowly enough that kills land
      // between our write and its answer. A mint whose answer a kill cut is sent again later under the same
      // Idempotency-Key, until answered.
      let stopping = false;
      let attempts = 0;
      const answers = new Map<string, string>();
      const unanswered: Array<{ key: string; amount: string }> = [];
      /** true: answered; 'refused': the connection was refused (the system is down: the request never reached it). */
      const mint = async (key: string, amount: string): Promise<boolean | 'refused'> => {
        const body = {
          amount,
          fundingSource: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usd },
          destination: { accountId: wallet },
        };
        const sent = await api(`/stablecoins/${coin.id}/mints`, body, key).catch((
          err: Error,
        ) => ((err.cause as { code?: string })?.code === 'ECONNREFUSED' ? 'refused' as const : undefined));
        if (sent === 'refused') return sent;
        if (sent?.status === 201) answers.set(key, sent.body.id);
        else if (sent && sent.status < 500 && sent.status !== 409) {
          throw new Error(`mint ${key}: ${sent.status} ${JSON.stringify(sent.body)}`);
        }
        return sent?.status === 201;
      };
      const workload = (async () => {
        while (!stopping) {
          attempts++;
          // 1.00 to 9.99 USD, never a late-failure amount (.02 cents) so the expected balance is plain.
          const cents = 100 + ((attempts * 37) % 900);
          const amount = String((cents % 100 === 2 ? cents + 1 : cents) * 10_000);
          const key = `crash-${process.pid}-${seq++}`;
          const answered = await mint(key, amount);
          if (answered !== true) {
            if (answered === false) unanswered.push({ key, amount });
            // While the system is down (or restarting), wait a little rather than spin.
            await new Promise((r) => setTimeout(r, 50));
          }
        }
      })();
      for (let i = 0; i < KILLS; i++) {
        await new Promise((r) => setTimeout(r, 500 + Math.random() * 1500));
        await killSystemProcess(system, 'SIGKILL');
        system = await startSystemProcess(env);
      }
      await new Promise((r) => setTimeout(r, 500));
      stopping = true;
      await workload;
      // The gateway holds a cut request's key for its lease (a minute), then lets the repeat run: it finds the
      // operation.
      let replays = 0;
      const replayDeadline = Date.now() + 180_000;
      for (const { key, amount } of unanswered) {
        while ((await mint(key, amount)) !== true) {
          replays++;
          if (Date.now() > replayDeadline) throw new Error(`mint ${key} never answered`);
          await new Promise((r) => setTimeout(r, 500));
        }
      }

      // Every operation ends in a terminal state (the worker submits the ones a crash left CREATED).
      const deadline = Date.now() + 180_000;
      let operations: any[] = [];
      for (;;) {
        let cursor: string | undefined;
        let page = await api(`/stablecoins/${coin.id}/operations?limit=100`);
        operations = page.body.data;
        while (page.body.hasMore) {
          cursor = page.body.nextCursor;
          page = await api(`/stablecoins/${coin.id}/operations?limit=100&cursor=${cursor}`);
          operations.push(...page.body.data);
        }
        if (operations.every((o) => ['COMPLETED', 'FAILED', 'EXPIRED'].includes(o.status)) || Date.now() > deadline) {
          break;
        }
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(
        operations.filter((o) => !['COMPLETED', 'FAILED', 'EXPIRED'].includes(o.status)).map((o) =>
          `${o.id}/${o.status}`
        ),
      ).toEqual([]);
      expect(operations.length).toBeGreaterThan(KILLS);
      // Every key answers one operation, and every operation is one key's answer: no mint was created twice for a key.
      expect(operations.filter((o) => ![...answers.values()].includes(o.id)).map((o) => o.id)).toEqual([]);
      expect(new Set(answers.values()).size).toBe(answers.size);

      // Each operation is exactly one Brale transfer, and Brale holds no transfer of an operation we do not know.
      const ids = new Set(operations.map((o) => o.id));
      const transfersPerOperation = new Map<string, number>();
      for (const t of fake.transfers.values()) {
        transfersPerOperation.set(t.key, (transfersPerOperation.get(t.key) ?? 0) + 1);
      }
      expect([...transfersPerOperation].filter(([, n]) => n !== 1)).toEqual([]);
      const unknown = [...transfersPerOperation.keys()].map((k) => k.replace('brale-crash/', '')).filter((id) =>
        !ids.has(id)
      );
      expect(unknown).toEqual([]);
      const retriedCreates = fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/transfers')).length
        - fake.transfers.size;

      // The internal account paid exactly the completed mints (failed ones were refunded).
      const completedCents = operations.filter((o) => o.status === 'COMPLETED').reduce(
        (sum, o) => sum + Number(o.amount) / 10_000,
        0,
      );
      const balance = (await api('/platform/internal-accounts?currency=USD')).body.data.find((a: any) => a.id === usd)
        .balance.amount as number;
      expect(balance).toBe(startBalance - completedCents);
      // The ledger audit on the stopped system's data: clean.
      await killSystemProcess(system, 'SIGTERM');
      const audit = await ledgerAudit(dataDir);
      expect(audit.problems).toEqual([]);
      expect(audit.clean).toBe(true);
      process.stdout.write(
        `stablecoin crash test: ${KILLS} kills, ${attempts} mint requests `
          + `(${unanswered.length} keys sent again, ${replays} repeats), `
          + `${operations.length} operations, ${fake.transfers.size} Brale transfers, `
          + `${retriedCreates} repeated creates, minted twice: 0, audit clean\n`,
      );
    } finally {
      await killSystemProcess(system, 'SIGKILL');
      await fake.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
);
