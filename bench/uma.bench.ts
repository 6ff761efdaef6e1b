import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoad, type LoadResult } from './load-loop';
import { client, freePort, spawnAndWait } from './payments-throughput.bench';

/**
 * UMA payments between two instances on this machine (`node dist/main.js` each, own data directory,
 * port and UMA domain) against payments between two customers inside one server, in the same run.
 * One operation: lookup + quote + execute (the quote sends the signed pay request, B answers with a
 * signed invoice); the settlement that follows runs in the background of both. Reported as the ratio
 * of operations per second, and how many of the measured UMA payments completed on both sides.
 */
const CLIENTS = 8;
const DURATION_MS = 15_000;
const MAIN = join(__dirname, '..', 'main.js');
const FUNDING = 10_000_000_000;

type Api = ReturnType<typeof client>;

async function customer(api: Api, address: string, funded: boolean): Promise<{ id: string; usd: string }> {
  const terms = await api('GET', '/customers/end-user-terms');
  const consent = {
    acceptedAt: new Date().toISOString(),
    ipAddress: '203.0.113.7',
    termsVersion: terms.body.version,
    acceptanceMethod: 'CHECKBOX',
  };
  const created = await api('POST', '/customers', {
    customerType: 'INDIVIDUAL',
    platformCustomerId: `uma-bench-${address}`,
    fullName: 'Bench Party',
    email: 'bench@example.com',
    endUserTermsConsent: consent,
    umaAddress: address,
  });
  if (created.status !== 201) throw new Error(`POST /customers answered ${created.status}`);
  const accounts = await api(
    'GET',
    `/customers/internal-accounts?customerId=${created.body.id}&type=INTERNAL_FIAT&currency=USD`,
  );
  const usd = accounts.body.data[0].id as string;
  if (funded) await api('POST', `/sandbox/internal-accounts/${usd}/fund`, { amount: FUNDING });
  return { id: created.body.id, usd };
}

async function startInstance(
  name: string,
): Promise<{ child: ChildProcess; api: Api; domain: string; dataDir: string }> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), `uma-bench-${name}-`));
  const domain = `localhost:${port}`;
  const child = await spawnAndWait({
    script: MAIN,
    args: ['all'],
    port,
    probe: '/2025-10-13/config',
    env: {
      DATA_DIR: dataDir,
      UMA_DOMAIN: domain,
      GATEWAY_RATE_LIMIT_REQUESTS: '100000000',
      SANDBOX_SETTLEMENT_STEP_MS: '0',
      MONGODB_URI: '',
      KAFKA_BROKERS: '',
    },
  });
  const api = client(`http://127.0.0.1:${port}/2025-10-13`);
  const config = await api('PATCH', '/config', { limits: [{ currency: 'USD', dailyVolume: 1_000_000_000_000 }] });
  if (config.status !== 200) throw new Error(`PATCH /config answered ${config.status}`);
  return { child, api, domain, dataDir };
}

function payment(api: Api, from: { id: string; usd: string }, to: string, transactions: string[]) {
  return async () => {
    const lookup = await api('GET', `/receiver/uma/${encodeURIComponent(to)}?customerId=${from.id}`);
    if (lookup.status !== 200) return false;
    const quote = await api('POST', '/quotes', {
      lookupId: lookup.body.lookupId,
      source: { sourceType: 'ACCOUNT', accountId: from.usd },
      senderCustomerInfo: { FULL_NAME: 'Bench Party' },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: to, currency: 'USD' },
      lockedCurrencySide: 'RECEIVING',
      lockedCurrencyAmount: 100,
    });
    if (quote.status !== 201) return false;
    const executed = await api('POST', `/quotes/${quote.body.id}/execute`);
    if (executed.status === 200) transactions.push(quote.body.transactionId);
    return executed.status === 200;
  };
}

export async function runUmaBenchmark(): Promise<
  { betweenInstances: LoadResult; insideOneServer: LoadResult; ratio: number; completedBetweenInstances: string }
> {
  const [a, b] = await Promise.all([startInstance('a'), startInstance('b')]);
  try {
    const alice = await customer(a.api, `$alice@${a.domain}`, true);
    await customer(b.api, `$bob@${b.domain}`, false);
    await customer(a.api, `$carol@${a.domain}`, false);
    const between: string[] = [];
    const inside: string[] = [];
    // Unmeasured first: V8 compiles the paths.
    await runLoad({ clients: CLIENTS, durationMs: 3_000, operation: payment(a.api, alice, `$bob@${b.domain}`, []) });
    await runLoad({ clients: CLIENTS, durationMs: 3_000, operation: payment(a.api, alice, `$carol@${a.domain}`, []) });
    const betweenInstances = await runLoad({
      clients: CLIENTS,
      durationMs: DURATION_MS,
      operation: payment(a.api, alice, `$bob@${b.domain}`, between),
    });
    const insideOneServer = await runLoad({
      clients: CLIENTS,
      durationMs: DURATION_MS,
      operation: payment(a.api, alice, `$carol@${a.domain}`, inside),
    });
    await new Promise((r) => setTimeout(r, 5_000));
    let completed = 0;
    for (const id of between) if ((await a.api('GET', `/transactions/${id}`)).body.status === 'COMPLETED') completed++;
    return {
      betweenInstances,
      insideOneServer,
      ratio: Number((betweenInstances.perSecond / insideOneServer.perSecond).toFixed(3)),
      completedBetweenInstances: `${completed}/${between.length}`,
    };
  } finally {
    for (const s of [a, b]) {
      s.child.kill('SIGTERM');
      rmSync(s.dataDir, { recursive: true, force: true });
    }
  }
}
