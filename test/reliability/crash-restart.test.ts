import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeDocument } from '../../lib/store/sqlite-statements';
import { balanceRecordsOf } from '../../services/quotes-transactions/store/ledger-document-store';
import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver';
import {
  allDeliveries, allTransactions, apiOf, expectedBalance, isSettled, preparePayer, startWorkload,
  type Acknowledged, type Payer,
} from './crash-workload';
import { killSystemProcess, startSystemProcess, type SystemProcess } from './system-process';

/**
 * The one-command system killed while payments, settlement and webhooks are in flight, then
 * started again on the same data directory, many times: nothing it acknowledged is lost, every
 * balance is what the settled transactions say, money is conserved, nothing is stuck, and every
 * event of a committed change reaches the webhook receiver. CRASH_KILLS sets the number of kills
 * (20 in `npm test`; `npm run test:crash` runs 200).
 */
const KILLS = Number(process.env.CRASH_KILLS ?? 20);
const FAST = {
  SANDBOX_SETTLEMENT_STEP_MS: '40', SETTLEMENT_POLL_MS: '20', QUOTE_VALIDITY_SECONDS: '15', LEDGER_RECOVERY_AFTER_MS: '500',
  WEBHOOK_RETRY_BASE_MS: '100', WEBHOOK_RETRY_MAX_DELAY_MS: '1000', WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_POLL_INTERVAL_MS: '50',
  GATEWAY_RATE_LIMIT_REQUESTS: '100000000',
};

jest.setTimeout(30 * 60_000);

interface Scenario { signal: NodeJS.Signals; restarts: number }

/** Polls `read` until `done` holds; on timeout the error shows what `read` last saw that was not done. */
async function until<T>(what: string, read: () => Promise<T[]>, done: (item: T) => boolean, timeoutMs: number): Promise<T[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const items = await read();
    if (items.every(done)) return items;
    if (Date.now() > deadline) throw new Error(`${what}: not reached in ${timeoutMs} ms: ${JSON.stringify(items.filter((i) => !done(i)).slice(0, 5))}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Reads the ledger's balances straight from the stopped system's data file. */
function ledgerBalances(dataDir: string): Array<{ account: string; currency: string; available: number }> {
  const db = new Database(join(dataDir, 'quotes-transactions.sqlite'), { readonly: true });
  try {
    const rows = db.prepare("SELECT body FROM documents WHERE collection = 'ledger_balances'").all() as Array<{ body: Buffer }>;
    return rows.flatMap((r) => balanceRecordsOf(decodeDocument(r.body) as Record<string, unknown>));
  } finally {
    db.close();
  }
}

async function runScenario({ signal, restarts }: Scenario) {
  const dataDir = mkdtempSync(join(tmpdir(), `grid-crash-${signal}-`));
  let system: SystemProcess = await startSystemProcess({ DATA_DIR: dataDir, ...FAST });
  const api = apiOf(() => system.rootUrl);
  const key = await api('/webhooks/public-key');
  const receiver: WebhookReceiver = await startWebhookReceiver({ publicKeyPem: key.body.publicKeyPem ?? key.body.publicKey, toleranceMs: 10 * 60_000 });
  try {
    expect((await api('/config', { webhookEndpoint: receiver.url }, 'PATCH')).status).toBe(200);
    // Events before this (the platform's own accounts, created at start) had no endpoint to go to: they
    // leave no delivery (a SKIPPED one only if recorded while the endpoint could not be read).
    const endpointSetAt = new Date().toISOString();
    const payers: Payer[] = [];
    for (let i = 0; i < 4; i++) payers.push(await preparePayer(api, i));

    const acknowledged: Acknowledged = { transactions: new Set(), attempts: 0, failures: 0 };
    const workload = startWorkload(api, payers, 8, acknowledged);
    for (let i = 0; i < restarts; i++) {
      await new Promise((r) => setTimeout(r, 300 + Math.random() * 1200));
      await killSystemProcess(system, signal);
      system = await startSystemProcess({ DATA_DIR: dataDir, ...FAST });
    }
    await new Promise((r) => setTimeout(r, 500));
    await workload.stop();
    expect(acknowledged.transactions.size).toBeGreaterThan(restarts);

    // Nothing acknowledged is lost, and every transaction reaches a state no worker moves on from.
    const transactions = await until('every transaction settled', () => allTransactions(api), isSettled, 180_000);
    const ids = new Set(transactions.map((t) => t.id));
    expect([...acknowledged.transactions].filter((id) => !ids.has(id))).toEqual([]);

    // Each payer's balance is exactly what its settled transactions say.
    for (const payer of payers) {
      const account = await api(`/customers/internal-accounts?customerId=${payer.customerId}&type=INTERNAL_FIAT&currency=USD`);
      expect({ account: payer.usdAccount, balance: account.body.data[0].balance.amount })
        .toEqual({ account: payer.usdAccount, balance: expectedBalance(payer, transactions) });
    }

    // Every event of a committed change is delivered: each recorded delivery acknowledged by the
    // receiver, and each settled payment's final state among what the receiver got.
    const delivered = (d: { id: string; status: string; createdAt: string }) => d.status === 'DELIVERED' || (d.status === 'SKIPPED' && d.createdAt < endpointSetAt);
    const deliveries = (await until('every webhook delivered', () => allDeliveries(api), delivered, 180_000)).filter((d) => d.status === 'DELIVERED');
    const received = new Set(receiver.accepted.map((w) => w.id));
    expect(deliveries.filter((d) => !received.has(d.id)).map((d) => d.id)).toEqual([]);
    const finalStates = new Set(receiver.accepted.map((w) => `${w.data.id}/${w.data.status}`));
    const unannounced = transactions
      .filter((t) => t.status !== 'EXPIRED')
      .filter((t) => !finalStates.has(`${t.id}/${t.status}`))
      .map((t) => `${t.id}/${t.status}`);
    expect(unannounced).toEqual([]);

    await killSystemProcess(system, 'SIGTERM');
    // Money is conserved: every step balances per currency, so all balances of a currency sum to zero.
    const sums = new Map<string, number>();
    for (const b of ledgerBalances(dataDir)) sums.set(b.currency, (sums.get(b.currency) ?? 0) + b.available);
    expect([...sums].filter(([, sum]) => sum !== 0)).toEqual([]);

    return { acknowledged: acknowledged.transactions.size, transactions: transactions.length, deliveries: deliveries.length };
  } finally {
    await killSystemProcess(system, 'SIGKILL');
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

test(`SIGKILL at random moments, ${KILLS} times, loses nothing acknowledged`, async () => {
  const figures = await runScenario({ signal: 'SIGKILL', restarts: KILLS });
  process.stdout.write(`crash test: ${KILLS} kills, ${figures.acknowledged} acknowledged payments, ${figures.transactions} transactions and ${figures.deliveries} webhooks checked, lost: 0\n`);
});

test('clean SIGTERM restarts lose nothing either', async () => {
  await runScenario({ signal: 'SIGTERM', restarts: 3 });
});
