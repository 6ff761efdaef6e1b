import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sortCountDrift } from '../../lib/store/sort-counts';
import { decodeDocument } from '../../lib/store/sqlite-statements';
import { balanceRecordsOf } from '../../services/quotes-transactions/ledger/store/ledger-document-store';
import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver';
import {
  allDeliveries,
  allTransactions,
  apiOf,
  expectedBalance,
  FUNDING,
  isSettled,
  preparePayer,
  startWorkload,
  type Acknowledged,
  type Payer,
} from './crash-workload';
import {
  equipPayer,
  newMoneyPaths,
  prepareScaPayer,
  prepareStablecoin,
  replayUnanswered,
  type MoneyPaths,
} from './money-paths';
import { killSystemProcess, ledgerAudit, startSystemProcess, type SystemProcess } from './system-process';

/**
 * The one-command system killed while every money path is in flight at once (payments and
 * transfers, SCA-authorized payments, agent payments, card authorizations, clearings, returns and the stale-hold
 * expiry, stablecoin mints and burns under Idempotency-Keys sent again after the kills), with settlement
 * and webhooks, then started again on the same data directory, many times: nothing it
 * acknowledged is lost, nothing applies twice, every balance is what the settled transactions say,
 * money is conserved, nothing is stuck, every event of a committed change reaches the webhook
 * receiver, and the ledger audit (`npm run ledger:audit`) finds the ledger clean. CRASH_KILLS sets
 * the number of kills (12 in `npm test`; `.ci/run` runs 50; `npm run test:crash` 200).
 */
const KILLS = Number(process.env.CRASH_KILLS ?? 12);
const PLATFORM_FUNDING = 1_000_000_000;
const FAST = {
  CARDS_AUTHORIZATION_EXPIRY_MS: '8000',
  CARDS_EXPIRY_POLL_MS: '500',
  STABLECOIN_POLL_MS: '50',
  SANDBOX_SETTLEMENT_STEP_MS: '40',
  SETTLEMENT_POLL_MS: '20',
  QUOTE_VALIDITY_SECONDS: '15',
  LEDGER_RECOVERY_AFTER_MS: '500',
  WEBHOOK_RETRY_BASE_MS: '100',
  WEBHOOK_RETRY_MAX_DELAY_MS: '1000',
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_POLL_INTERVAL_MS: '50',
  GATEWAY_RATE_LIMIT_REQUESTS: '100000000',
};

jest.setTimeout(30 * 60_000);

interface Scenario {
  signal: NodeJS.Signals;
  restarts: number;
}

/** Polls `read` until `done` holds; on timeout the error shows what `read` last saw that was not done. */
async function until<T>(
  what: string,
  read: () => Promise<T[]>,
  done: (item: T) => boolean,
  timeoutMs: number,
): Promise<T[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const items = await read();
    if (items.every(done)) return items;
    if (Date.now() > deadline) {
      throw new Error(
        `${what}: not reached in ${timeoutMs} ms: ${JSON.stringify(items.filter((i) => !done(i)).slice(0, 5))}`,
      );
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Reads the ledger's balances straight from the stopped system's data file. */
function ledgerBalances(dataDir: string): Array<{ account: string; currency: string; available: number }> {
  const db = new Database(join(dataDir, 'quotes-transactions.sqlite'), { readonly: true });
  try {
    const rows = db.prepare("SELECT body FROM documents WHERE collection = 'ledger_balances'").all() as Array<
      { body: Buffer }
    >;
    return rows.flatMap((r) => balanceRecordsOf(decodeDocument(r.body) as Record<string, unknown>));
  } finally {
    db.close();
  }
}

const storeFiles = (dataDir: string) =>
  readdirSync(dataDir).filter((name) => name.endsWith('.sqlite')).map((name) => join(dataDir, name));

function countDriftOf(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    return sortCountDrift(db).map((drift) => ({ file, ...drift }));
  } finally {
    db.close();
  }
}

async function runScenario({ signal, restarts }: Scenario) {
  const dataDir = mkdtempSync(join(tmpdir(), `grid-crash-${signal}-`));
  let system: SystemProcess = await startSystemProcess({ DATA_DIR: dataDir, ...FAST });
  const api = apiOf(() => system.rootUrl);
  const key = await api('/webhooks/public-key');
  const receiver: WebhookReceiver = await startWebhookReceiver({
    publicKeyPem: key.body.publicKeyPem ?? key.body.publicKey,
    toleranceMs: 10 * 60_000,
  });
  try {
    expect((await api('/config', { webhookEndpoint: receiver.url }, 'PATCH')).status).toBe(200);
    // Events before this (the platform's own accounts, created at start) had no endpoint to go to: they
    // leave no delivery (a SKIPPED one only if recorded while the endpoint could not be read).
    const endpointSetAt = new Date().toISOString();
    const payers: Payer[] = [];
    for (let i = 0; i < 4; i++) payers.push(await preparePayer(api, i));
    for (const payer of payers) await equipPayer(api, () => system.rootUrl, payer);
    const coin = await prepareStablecoin(api, PLATFORM_FUNDING);
    const scaPayer = await prepareScaPayer(api, FUNDING);
    const money = newMoneyPaths();

    const acknowledged: Acknowledged = { transactions: new Set(), attempts: 0, failures: 0 };
    let up = true;
    const workload = startWorkload({
      api,
      payers,
      workers: 8,
      acknowledged,
      pauseMs: 0,
      paths: { money, coin, isUp: () => up, scaPayer },
    });
    for (let i = 0; i < restarts; i++) {
      await new Promise((r) => setTimeout(r, 500 + Math.random() * 1500));
      await killSystemProcess(system, signal);
      up = false;
      system = await startSystemProcess({ DATA_DIR: dataDir, ...FAST });
      up = true;
    }
    await new Promise((r) => setTimeout(r, 500));
    await workload.stop();
    expect(acknowledged.transactions.size).toBeGreaterThan(restarts);
    // Every key a kill left unanswered is sent again until answered: it finds its operation.
    await replayUnanswered(api, money);

    // Nothing acknowledged is lost, and every transaction reaches a state no worker moves on from.
    const transactions = await until('every transaction settled', () => allTransactions(api), isSettled, 180_000);
    const ids = new Set(transactions.map((t) => t.id));
    expect([...acknowledged.transactions].filter((id) => !ids.has(id))).toEqual([]);

    // Stale card authorizations expire (their holds given back) before the balances are read.
    await until(
      'every card authorization cleared or expired',
      () => allTransactions(api).then((all) => all.filter((t) => t.type === 'CARD')),
      (t) => t.status !== 'AUTHORIZED' && t.status !== 'PARTIALLY_SETTLED',
      120_000,
    );
    const exact = await moneyPathsExact(api, money, coin, transactions);

    // Each payer's balance is exactly what its settled transactions say; when one is not, the
    // ledger audit of the stopped system says which steps disagree.
    const settled = await allTransactions(api);
    const mismatches: Array<{ account: string; balance: number; expected: number }> = [];
    for (const payer of [...payers, scaPayer]) {
      const account = await api(
        `/customers/internal-accounts?customerId=${payer.customerId}&type=INTERNAL_FIAT&currency=USD`,
      );
      const balance = account.body.data[0].balance.amount as number;
      const expected = expectedBalance(payer, settled);
      if (balance !== expected) mismatches.push({ account: payer.usdAccount, balance, expected });
    }
    if (mismatches.length > 0) {
      await killSystemProcess(system, 'SIGTERM');
      expect({ mismatches, audit: (await ledgerAudit(dataDir)).problems }).toEqual({ mismatches: [], audit: [] });
    }

    // Every event of a committed change is delivered: each recorded delivery acknowledged by the
    // receiver, and each settled payment's final state among what the receiver got.
    const delivered = (d: { id: string; status: string; createdAt: string }) =>
      d.status === 'DELIVERED' || (d.status === 'SKIPPED' && d.createdAt < endpointSetAt);
    const deliveries = (await until('every webhook delivered', () => allDeliveries(api), delivered, 180_000)).filter((
      d,
    ) => d.status === 'DELIVERED');
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
    // The ledger audit, as an operator runs it on the stopped system's data directory.
    const audit = await ledgerAudit(dataDir);
    expect(audit.problems).toEqual([]);
    expect(audit).toMatchObject({ clean: true, inFlight: [] });
    // Every store file's running counts agree with its index entries: none was committed apart from them.
    expect(storeFiles(dataDir).flatMap(countDriftOf)).toEqual([]);

    return {
      acknowledged: acknowledged.transactions.size,
      transactions: transactions.length,
      deliveries: deliveries.length,
      money,
      exact,
      audit,
    };
  } finally {
    await killSystemProcess(system, 'SIGKILL');
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The paths beside payments lose nothing and apply nothing twice: every acknowledged clearing and
 * return is in its card transaction and none is in it more than was sent; every Idempotency-Key of
 * a mint or burn names exactly one operation, and every operation is one key's; every operation
 * ends; the platform's USD account paid exactly the completed mints.
 */
async function moneyPathsExact(
  api: ReturnType<typeof apiOf>,
  money: MoneyPaths,
  coin: { id: string; usd: string },
  transactions: any[],
) {
  const cards = new Map(transactions.filter((t) => t.type === 'CARD').map((t) => [t.id, t]));
  const lost: string[] = [];
  const doubled: string[] = [];
  for (const [id, e] of money.cardEvents) {
    const t = cards.get(id);
    const settled = t?.settledAmount?.amount ?? 0;
    const refunded = t?.refundedAmount?.amount ?? 0;
    if (!t || settled < e.clearedAcked || refunded < e.returnedAcked) {
      lost.push(`${id}: settled ${settled}/${e.clearedAcked}, refunded ${refunded}/${e.returnedAcked}`);
    }
    if (settled > e.clearedSent || refunded > e.returnedSent) {
      doubled.push(
        `${id}: settled ${settled} of ${e.clearedSent} sent, refunded ${refunded} of ${e.returnedSent} sent`,
      );
    }
  }
  const operations = await until(
    'every stablecoin operation ended',
    async () => {
      const all: any[] = [];
      let cursor: string | undefined;
      do {
        const page = await api(`/stablecoins/${coin.id}/operations?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
        all.push(...page.body.data);
        cursor = page.body.hasMore ? page.body.nextCursor : undefined;
      } while (cursor);
      return all;
    },
    (o) => ['COMPLETED', 'FAILED', 'EXPIRED'].includes(o.status),
    180_000,
  );
  const keyed = new Set<string>();
  for (const [key, ids] of money.operationKeys) {
    if (ids.size === 0) lost.push(`${key}: no operation`);
    if (ids.size > 1) doubled.push(`${key}: ${[...ids].join(', ')}`);
    ids.forEach((id) => keyed.add(id));
  }
  for (const o of operations) if (!keyed.has(o.id)) doubled.push(`${o.id}: an operation no key answered`);
  const minted = operations.filter((o) => o.operationType === 'MINT' && o.status === 'COMPLETED').reduce(
    (sum, o) => sum + Number(o.amount) / 10_000,
    0,
  );
  const usd = (await api('/platform/internal-accounts?currency=USD')).body.data.find((a: any) => a.id === coin.usd)
    .balance.amount as number;
  expect({ lost, doubled, usd }).toEqual({ lost: [], doubled: [], usd: PLATFORM_FUNDING - minted });
  return { operations: operations.length, minted, lost: lost.length, doubled: doubled.length };
}

test(
  `SIGKILL at random moments, ${KILLS} times, under every `
    + 'money path: nothing lost, nothing twice, the audit clean',
  async () => {
    const f = await runScenario({ signal: 'SIGKILL', restarts: KILLS });
    const byPath = Object.entries(f.money.counts).map(([path, c]) => `${path} ${c.acknowledged}/${c.sent}`).join(', ');
    process.stdout.write(
      `crash test: ${KILLS} kills; acknowledged/attempted by path: ${byPath}; `
        + `${f.money.keysReplayed} keys sent again after no answer (${f.money.replays} requests), `
        + `${f.exact.operations} stablecoin operations; ${f.transactions} `
        + `transactions and ${f.deliveries} webhooks checked; `
        + `lost: ${f.exact.lost}, double-applied: ${f.exact.doubled}; audit: ${f.audit.clean ? 'clean' : 'PROBLEMS'} `
        + `(${f.audit.counts.markers} markers, ${f.audit.counts.internalAccounts} `
        + `internal accounts, ${f.audit.counts.cardTransactions} card transactions)\n`
        + `answers other than 2xx: ${JSON.stringify(f.money.refusals)}\n`,
    );
  },
);

test('clean SIGTERM restarts lose nothing either', async () => {
  await runScenario({ signal: 'SIGTERM', restarts: 3 });
});
