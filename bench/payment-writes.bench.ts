import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoad } from './load-loop';
import {
  agentCreateAndExecute,
  client,
  connectAgent,
  cpuMsOf,
  freePort,
  preparePayments,
  spawnAndWait,
} from './payments-throughput.bench';
import { runServiceProcesses, samples } from './service-processes';

/**
 * `npm run bench -- writes`: store operations per platform create + execute, by collection and
 * operation, counted from the service threads' own metrics (`store_operation_duration_seconds`,
 * METRICS_PORT + 1, to + 4 with a thread per service) over a fixed number of payments, each followed to COMPLETED
 * (settlement included); then, on a second system without metrics, the CPU per create + execute (every thread,
 * from /proc) from the start of a measured load until the system is idle again.
 * The count also gives the events the outbox relays published per payment, by topic.
 * Then `serviceProcesses` (bench/service-processes.ts): the same payments with the gateway and each service in a
 * process of its own on Kafka, the webhooks delivered to a local receiver: CPU, store operations,
 * events and webhook deliveries per payment, by service (the inputs of docs/capacity.md).
 * WRITES_BENCH_PAYMENTS (default 300; 0 skips the count), WRITES_BENCH_CPU_MS (default 10000; 0 skips the CPU load),
 * WRITES_BENCH_SERVICES (default 300 payments; 0 skips the separate processes, which are also left out, with the
 * reason, where librdkafka's mock cluster cannot be built).
 * WRITES_BENCH_PATH=agent counts and times the agent's create + execute (Bearer, AUTO, limits counted) instead.
 */
const WRITE_OPERATIONS = new Set([
  'insertOne',
  'updateOne',
  'updateMany',
  'findOneAndUpdate',
  'deleteOne',
  'deleteMany',
]);
const CLIENTS = 16;
const STEP_MS = '200';

type Counts = Map<string, number>;

/** The service threads' metrics: METRICS_PORT + 1 for one services thread, + 1 to + 4 for a thread each. */
async function servicesMetrics(metricsPort: number): Promise<string> {
  const texts = await Promise.all(
    [1, 2, 3, 4].map((offset) =>
      fetch(`http://127.0.0.1:${metricsPort + offset}/metrics`).then((r) => r.text(), () => '')
    ),
  );
  return texts.join('\n');
}

async function scrape(metricsPort: number): Promise<{ counts: Counts; events: Counts }> {
  const text = await servicesMetrics(metricsPort);
  const counts: Counts = new Map();
  for (const line of text.split('\n')) {
    if (!line.startsWith('store_operation_duration_seconds_count')) continue;
    const collection = /collection="([^"]+)"/.exec(line)?.[1];
    const operation = /operation="([^"]+)"/.exec(line)?.[1];
    const key = `${collection} ${operation}`;
    counts.set(key, (counts.get(key) ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1)));
  }
  return { counts, events: samples(text, 'outbox_events_published_total', ['topic']) };
}

async function idle(pid: number): Promise<void> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    const before = cpuMsOf(pid);
    await new Promise((r) => setTimeout(r, 1_000));
    if (cpuMsOf(pid) - before < 100) return;
  }
}

async function system(env: NodeJS.ProcessEnv) {
  const root = join(__dirname, '..');
  const dataDir = mkdtempSync(join(tmpdir(), 'grid-writes-'));
  const port = await freePort();
  const child = await spawnAndWait({
    script: join(root, 'main.js'),
    args: ['all'],
    port,
    probe: '/2025-10-13/customers?limit=1',
    env: { DATA_DIR: dataDir, GATEWAY_RATE_LIMIT_REQUESTS: '100000000', SANDBOX_SETTLEMENT_STEP_MS: STEP_MS, ...env },
    nodeArgs: process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean),
  });
  const api = client(`http://127.0.0.1:${port}/2025-10-13`);
  const parties = await preparePayments(api);
  const platformPay = async () => {
    const quote = await api('POST', '/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: parties.source },
      destination: { destinationType: 'ACCOUNT', accountId: parties.payee },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1000,
    });
    if (quote.status !== 201) return false;
    return (await api('POST', `/quotes/${quote.body.id}/execute`)).status === 200;
  };
  let pay = platformPay;
  if (process.env.WRITES_BENCH_PATH === 'agent') {
    const agentApi = await connectAgent(api, `http://127.0.0.1:${port}/2025-10-13`, parties.customerId);
    pay = () => agentCreateAndExecute(agentApi, parties.source, parties.payee, []);
  }
  const stop = () => {
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { child, api, parties, pay, stop };
}

/** Store operations per settled payment, by `collection operation`, and the writes among them. */
async function countWrites(payments: number) {
  const metricsPort = await freePort();
  const counted = await system({ METRICS_PORT: String(metricsPort), METRICS_HOST: '127.0.0.1' });
  try {
    await runLoad({ clients: 4, durationMs: 2_000, operation: counted.pay });
    await idle(counted.child.pid!);
    const before = await scrape(metricsPort);
    let started = 0;
    let done = 0;
    await Promise.all(Array.from({ length: CLIENTS }, async () => {
      while (started < payments) {
        started++;
        if (await counted.pay()) done++;
      }
    }));
    await idle(counted.child.pid!);
    const after = await scrape(metricsPort);
    const rows = [...after.counts].map(([key, n]) => [key, (n - (before.counts.get(key) ?? 0)) / done] as const).filter(
      ([, n]) => n > 0,
    ).sort();
    const events = [...after.events].map(([topic, n]) => [topic, (n - (before.events.get(topic) ?? 0)) / done] as const)
      .filter(([, n]) => n > 0).sort();
    return {
      writesPerPayment: Number(
        rows.filter(([key]) => WRITE_OPERATIONS.has(key.split(' ')[1])).reduce((sum, [, n]) => sum + n, 0).toFixed(2),
      ),
      perCollection: Object.fromEntries(rows.map(([key, n]) => [key, Number(n.toFixed(2))])),
      eventsPerPayment: Object.fromEntries(events.map(([topic, n]) => [topic, Number(n.toFixed(2))])),
    };
  } finally {
    counted.stop();
  }
}

/**
 * CPU (every thread) per create + execute, from the start of a measured load until the system is idle again, less what
 * it spends idle.
 */
async function cpuPerPayment(durationMs: number) {
  const timed = await system({});
  try {
    await runLoad({ clients: CLIENTS, durationMs: 3_000, operation: timed.pay });
    await idle(timed.child.pid!);
    // What the idle system spends per second (relay and settlement polls), taken off the load's share.
    const quietFrom = cpuMsOf(timed.child.pid!);
    await new Promise((r) => setTimeout(r, 3_000));
    const idleMsPerSecond = (cpuMsOf(timed.child.pid!) - quietFrom) / 3;
    const before = cpuMsOf(timed.child.pid!);
    const started = Date.now();
    const load = await runLoad({ clients: CLIENTS, durationMs, operation: timed.pay });
    await idle(timed.child.pid!);
    const spent = cpuMsOf(timed.child.pid!) - before - idleMsPerSecond * ((Date.now() - started) / 1_000);
    return {
      cpuMsPerCreateExecute: Number((spent / Math.max(1, load.operations)).toFixed(3)),
      idleMsPerSecond,
      operations: load.operations,
      perSecond: load.perSecond,
    };
  } finally {
    timed.stop();
  }
}

/**
 * Without librdkafka (its mock cluster is the Kafka here) the separate processes are left out, saying why; any other
 * failure stands.
 */
function kafkaMissing(err: unknown): { skipped: string } {
  if (!String(err).includes('kafka mock:')) throw err;
  return { skipped: String(err).split('\n')[0] };
}

export async function runPaymentWritesBenchmark() {
  const payments = Number(process.env.WRITES_BENCH_PAYMENTS ?? 300);
  const durationMs = Number(process.env.WRITES_BENCH_CPU_MS ?? 10_000);
  const separate = Number(process.env.WRITES_BENCH_SERVICES ?? 300);
  return {
    ...(payments > 0 ? await countWrites(payments) : {}),
    ...(durationMs > 0 ? await cpuPerPayment(durationMs) : {}),
    ...(separate > 0 ? { serviceProcesses: await runServiceProcesses(separate).catch(kafkaMissing) } : {}),
  };
}
