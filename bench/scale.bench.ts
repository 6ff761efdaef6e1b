import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Doc } from '../lib/store/document-store';
import { createSqliteDocumentStore } from '../lib/store/sqlite-document-store';
import { createKeepAliveClient } from './keep-alive-client';
import { runLoad } from './load-loop';
import { timeDocumentedFilters } from './scale-filters';
import { prepareScalePayer, type ScalePayer } from './scale-payer';
import { runLivePhase, type LivePhaseResult } from './scale-live';
import { startSystem, stopSystem, type RunningSystem, type TimedStart } from './system-process';

/**
 * The embedded store at two history sizes in one run (`npm run bench -- scale`): the real system
 * (`node dist/main.js all`, SQLite engine) on one data directory.
 *
 * 1. Real traffic through the API: customers (one per 10 payments) and payments (quote with
 *    `immediatelyExecute`, 16 in flight). The data files' growth over it, webhook delivery records
 *    excluded, is the disk per payment.
 * 2. History is then seeded directly through the store, for speed (a real payment takes ~10 ms, a
 *    seeded one ~50 µs): copies of the real payments and customers with new ids, times and
 *    customers, written with the SQLite engine while the system is stopped. Only payments and
 *    customers are copied (not their ledger entries, events or deliveries).
 * 3. At each size (10k, then 100k payments): the system is restarted and timed from spawn to
 *    `/readyz` 200, with the CPU time it took, the machine's load average and the start-up
 *    timeline (system-process.ts); a page of 100 transactions for one customer is timed through the gateway
 *    (median of 40 after 10 unmeasured); then, after real payments and list pages for random
 *    customers, the process's resident memory is read.
 * 4. The live phase (bench/scale-live.ts), on a new data directory: resident memory and WAL sizes
 *    under 12,000 real payments (SCALE_LIVE_PAYMENTS).
 */
const AUTH = `Basic ${Buffer.from('sandbox-token:sandbox-secret-0000000000').toString('base64')}`;
/**
 * The history sizes measured; `SCALE_SIZES=2000,20000` for a quick run on a busy machine (the disk per payment does not
 * depend on them). SCALE_DATA_DIR names a new (or empty) data directory that is kept after the run.
 */
const SIZES = process.env.SCALE_SIZES ? process.env.SCALE_SIZES.split(',').map(Number) : [10_000, 100_000];
const REAL_PAYMENTS = 300;
const PAYMENTS_PER_CUSTOMER = 10;

export interface ScaleFigures {
  payments: number;
  /** Spawn of `node dist/main.js all` to `/readyz` 200. */
  readyAfterRestartMs: number;
  /** That restart whole: CPU time to ready (all threads, by thread), load average, timeline. */
  restart: TimedStart;
  /** `GET /transactions?customerId=…&limit=100` through the gateway, median and slowest of 40. */
  customerPageMs: { median: number; max: number };
  /** The store's part of that page (the SQLite engine on the stopped system's file: find 101 + count), median of 40. */
  storeCustomerPageMs: number;
  /** `GET /transactions?limit=100` for the whole platform, median of 20. */
  platformPageMs: number;
  /** VmRSS of the system process after the load at this size. */
  residentMb: number;
  /** Every store file of the data directory. */
  dataMb: number;
}

export interface ScaleResult {
  realPayments: number;
  /** Growth of the store files per real payment, webhook delivery records excluded (see deliveryShare). */
  diskKbPerPayment: number;
  /** The same with the delivery records. */
  diskKbPerPaymentWithDeliveries: number;
  sizes: ScaleFigures[];
  residentGrowthMb: number;
  readyGrowthMs: number;
  /** Memory and WAL under live payments on a data directory of its own (bench/scale-live.ts; SCALE_LIVE_PAYMENTS). */
  live?: LivePhaseResult;
}

const residentMb = (pid: number) =>
  Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024);

/** Bytes of the store files (with their WAL) by service. */
function storeBytes(dataDir: string): Record<string, number> {
  const sizes: Record<string, number> = {};
  for (const name of readdirSync(dataDir)) {
    const match = /^(.+)\.sqlite(-wal)?$/.exec(name);
    if (match) sizes[match[1]] = (sizes[match[1]] ?? 0) + statSync(join(dataDir, name)).size;
  }
  return sizes;
}
const total = (sizes: Record<string, number>) => Object.values(sizes).reduce((a, b) => a + b, 0);

/** The share of the notifications file that webhook delivery records take (by the bytes of their rows). */
async function deliveryShare(dataDir: string): Promise<number> {
  const store = createSqliteDocumentStore({ path: join(dataDir, 'notifications.sqlite') });
  try {
    const rows = store.database.prepare(
      "SELECT collection = 'webhook_deliveries' AS delivery, "
        + 'sum(length(body) + length(key)) AS bytes FROM documents GROUP BY 1',
    ).all() as Array<{ delivery: number; bytes: number }>;
    const delivery = rows.find((r) => r.delivery === 1)?.bytes ?? 0;
    const all = rows.reduce((n, r) => n + r.bytes, 0);
    return all ? delivery / all : 0;
  } finally {
    await store.close();
  }
}

type Api = ReturnType<typeof createKeepAliveClient>;

/** Real payments (16 in flight) and one new customer per 10 of them. */
async function realTraffic(
  api: Api,
  setup: ScalePayer,
  payments: number,
  tag: string,
): Promise<void> {
  let made = 0;
  let customers = 0;
  const worker = async () => {
    while (made < payments) {
      made += 1;
      if (made % PAYMENTS_PER_CUSTOMER === 0) {
        customers += 1;
        await api('POST', '/customers', {
          customerType: 'INDIVIDUAL',
          platformCustomerId: `scale-${tag}-${customers}`,
          fullName: 'Scale Customer',
          endUserTermsConsent: setup.consent,
        });
      }
      const quote = await api('POST', '/quotes', {
        source: { sourceType: 'ACCOUNT', accountId: setup.source },
        destination: { destinationType: 'ACCOUNT', accountId: setup.payee },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1000,
        immediatelyExecute: true,
      });
      if (quote.status !== 201) throw new Error(`POST /quotes answered ${quote.status}: ${JSON.stringify(quote.body)}`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

/**
 * Seeds payments up to `target`, copies of the real ones, spread over customers (one per 10
 * payments, copies of a real customer), oldest first; returns the seeded customers' ids.
 */
async function seedHistory(dataDir: string, target: number, from: number): Promise<string[]> {
  const payments = createSqliteDocumentStore({ path: join(dataDir, 'quotes-transactions.sqlite'), cacheDocuments: 0 });
  const accounts = createSqliteDocumentStore({ path: join(dataDir, 'accounts.sqlite'), cacheDocuments: 0 });
  const customerIds: string[] = [];
  try {
    const templates = await payments.collection('payments').find({ status: { $exists: true } }, { limit: 50 });
    const customerTemplate = await accounts.collection('customers').findOne({ platformCustomerId: 'scale-payer' });
    if (!templates.length || !customerTemplate) throw new Error('no real payment or customer to copy');
    const start = Date.now() - 400 * 24 * 3600_000;
    for (let base = from; base < target; base += 500) {
      const writes: Array<Promise<void>> = [];
      for (let i = base; i < Math.min(target, base + 500); i++) {
        const customerId = `Customer:seed-${Math.floor(i / PAYMENTS_PER_CUSTOMER)}`;
        if (i % PAYMENTS_PER_CUSTOMER === 0) {
          writes.push(
            accounts.collection('customers').insertOne(
              copyCustomer(customerTemplate, { id: customerId, i, createdAt: new Date(start + i * 60_000) }),
            ),
          );
          customerIds.push(customerId);
        }
        writes.push(
          payments.collection('payments').insertOne(
            copyPayment(templates[i % templates.length], i, customerId, new Date(start + i * 60_000)),
          ),
        );
      }
      await Promise.all(writes);
    }
  } finally {
    await payments.close();
    await accounts.close();
  }
  return customerIds;
}

function copyPayment(template: Doc, i: number, customerId: string, createdAt: Date): Doc {
  const id = `Transaction:seed-${String(i).padStart(9, '0')}`;
  const copy = structuredClone(template) as Doc & Record<string, any>;
  copy._id = id;
  copy.customerId = customerId;
  copy.createdAt = typeof template.createdAt === 'string' ? createdAt.toISOString() : createdAt;
  copy.updatedAt = copy.createdAt;
  if (copy.quote && typeof copy.quote === 'object') copy.quote = { ...copy.quote, id: `Quote:seed-${i}` };
  delete copy.idempotency;
  delete copy.nextActionAt;
  delete copy.pendingStep;
  copy._outbox = [];
  return copy;
}

/** A seeded customer: its own id, platform customer id, UMA address and creation time (pages sort on it). */
function copyCustomer(template: Doc, seed: { id: string; i: number; createdAt: Date }): Doc {
  const { id, i, createdAt } = seed;
  const copy = structuredClone(template) as Doc & Record<string, any>;
  copy._id = id;
  copy.createdAt = typeof template.createdAt === 'string' ? createdAt.toISOString() : createdAt;
  copy.updatedAt = copy.createdAt;
  copy.platformCustomerId = `seed-${i}`;
  for (const field of ['provisioning', 'emailChange']) delete copy[field];
  copy.umaAddress = `$seed${i}@example.com`;
  copy._outbox = [];
  return copy;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function timed(call: () => Promise<{ status: number }>): Promise<number> {
  const started = performance.now();
  const answer = await call();
  if (answer.status !== 200) throw new Error(`answered ${answer.status}`);
  return performance.now() - started;
}

interface SizeRun {
  root: string;
  dataDir: string;
  payments: number;
  customers: string[];
  setup: ScalePayer;
}

async function measureSize({ root, dataDir, payments, customers, setup }: SizeRun): Promise<ScaleFigures> {
  const running: RunningSystem = await startSystem(root, dataDir);
  try {
    const api = createKeepAliveClient(running.base, { authorization: AUTH });
    const customer = customers[Math.floor(customers.length / 3)];
    const page = () => api('GET', `/transactions?customerId=${customer}&limit=100`);
    const first = await page();
    if (first.status !== 200 || first.body.data.length !== PAYMENTS_PER_CUSTOMER) {
      throw new Error(`customer page: ${first.status} ${JSON.stringify(first.body).slice(0, 300)}`);
    }
    for (let i = 0; i < 10; i++) await timed(page);
    const customerTimes: number[] = [];
    for (let i = 0; i < 40; i++) customerTimes.push(await timed(page));
    const platformTimes: number[] = [];
    for (let i = 0; i < 20; i++) platformTimes.push(await timed(() => api('GET', '/transactions?limit=100')));
    await timeDocumentedFilters(api, { payments, customers, account: setup.source });
    // Load at this size before memory is read: real payments and list pages for random customers.
    await realTraffic(api, setup, 200, `load-${payments}`);
    await runLoad({
      clients: 8,
      durationMs: 5_000,
      operation: async () =>
        (await api(
          'GET',
          `/transactions?customerId=${customers[Math.floor(Math.random() * customers.length)]}&limit=100`,
        )).status === 200,
    });
    return {
      payments,
      readyAfterRestartMs: running.start.readyMs,
      restart: running.start,
      customerPageMs: {
        median: Number(median(customerTimes).toFixed(2)),
        max: Number(Math.max(...customerTimes).toFixed(2)),
      },
      platformPageMs: Number(median(platformTimes).toFixed(2)),
      residentMb: residentMb(running.child.pid!),
      dataMb: 0,
      storeCustomerPageMs: 0,
    };
  } finally {
    await stopSystem(running);
  }
}

/** The payments list's store queries for one customer, timed on the file alone (no gateway, no gRPC, no other load). */
async function storeCustomerPage(dataDir: string, customerId: string): Promise<number> {
  const store = createSqliteDocumentStore({ path: join(dataDir, 'quotes-transactions.sqlite') });
  try {
    const payments = store.collection('payments');
    const { platformId } = (await payments.findOne({ customerId })) as Doc;
    const filter = { $and: [{ platformId }, { customerId }] };
    const page = async () => {
      const [docs] = await Promise.all([
        payments.find(filter, { sort: { createdAt: -1, _id: -1 }, limit: 101 }),
        payments.countDocuments(filter),
      ]);
      if (docs.length !== PAYMENTS_PER_CUSTOMER) throw new Error(`store page: ${docs.length} payments`);
      return { status: 200 };
    };
    const times: number[] = [];
    for (let i = 0; i < 50; i++) times.push(await timed(page));
    return Number(median(times.slice(10)).toFixed(3));
  } finally {
    await store.close();
  }
}

export async function runScaleBenchmark(sizes = SIZES): Promise<ScaleResult> {
  const root = join(__dirname, '..');
  if (!existsSync(join(root, 'main.js'))) throw new Error('run `npm run build` first');
  const kept = process.env.SCALE_DATA_DIR?.trim();
  if (kept) mkdirSync(kept, { recursive: true });
  const dataDir = kept || mkdtempSync(join(tmpdir(), 'grid-scale-'));
  try {
    let running = await startSystem(root, dataDir);
    const api = createKeepAliveClient(running.base, { authorization: AUTH });
    const setup = await prepareScalePayer(api, { platformCustomerId: 'scale-payer', fullName: 'Scale Payer' });
    await stopSystem(running);
    const before = storeBytes(dataDir);
    running = await startSystem(root, dataDir);
    await realTraffic(createKeepAliveClient(running.base, { authorization: AUTH }), setup, REAL_PAYMENTS, 'real');
    await stopSystem(running);
    const after = storeBytes(dataDir);
    const share = await deliveryShare(dataDir);
    const growth = total(after) - total(before);
    const deliveryBytes = share * ((after.notifications ?? 0) - (before.notifications ?? 0));

    const figures: ScaleFigures[] = [];
    const customers: string[] = [];
    let seeded = 0;
    for (const size of sizes) {
      customers.push(...(await seedHistory(dataDir, size, seeded)));
      seeded = size;
      const measured = await measureSize({ root, dataDir, payments: size, customers, setup });
      measured.dataMb = Math.round(total(storeBytes(dataDir)) / 1024 / 1024);
      measured.storeCustomerPageMs = await storeCustomerPage(dataDir, customers[Math.floor(customers.length / 2)]);
      figures.push(measured);
      console.log('scale:', JSON.stringify(measured));
    }
    return {
      realPayments: REAL_PAYMENTS,
      diskKbPerPayment: Number(((growth - deliveryBytes) / REAL_PAYMENTS / 1024).toFixed(2)),
      diskKbPerPaymentWithDeliveries: Number((growth / REAL_PAYMENTS / 1024).toFixed(2)),
      sizes: figures,
      residentGrowthMb: figures[figures.length - 1].residentMb - figures[0].residentMb,
      readyGrowthMs: figures[figures.length - 1].readyAfterRestartMs - figures[0].readyAfterRestartMs,
      live: await runLivePhase(root),
    };
  } finally {
    if (!kept) rmSync(dataDir, { recursive: true, force: true });
  }
}
