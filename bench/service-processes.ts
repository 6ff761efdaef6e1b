import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startKafkaMockCluster } from '../test/kafka-mock/kafka-mock-cluster';
import {
  agentCreateAndExecute,
  client,
  connectAgent,
  cpuMsOf,
  freePort,
  preparePayments,
  spawnAndWait,
} from './payments-throughput.bench';

/**
 * The operator's topology on this machine: the gateway and the four services as separate processes
 * (`node dist/main.js <component>`), on Kafka (librdkafka's mock cluster: the real wire protocol),
 * each service with its own data directory and each component with its own metrics port, and the
 * platform's webhooks pointed at a local receiver that acknowledges everything. A fixed number of
 * create + execute, each followed to COMPLETED and its webhooks delivered, gives per payment and per
 * process: CPU (/proc, less what the process spends idle), store operations by collection (the
 * service's database), events published by topic, webhook deliveries by outcome, and which
 * components consume each topic. docs/capacity.md models a deployment from these figures.
 */
export const SERVICES = ['auth', 'accounts', 'quotes-transactions', 'notifications'] as const;
type Service = (typeof SERVICES)[number];
type Name = Service | 'gateway';
const ADDRESS_VARS: Record<Service, string> = {
  auth: 'AUTH_ADDRESS',
  accounts: 'ACCOUNTS_ADDRESS',
  'quotes-transactions': 'QUOTES_TRANSACTIONS_ADDRESS',
  notifications: 'NOTIFICATIONS_ADDRESS',
};
const TOPICS = ['accounts.events.v1:3', 'auth.events.v1:3', 'payments.events.v1:6', 'notifications.events.v1:3'];
const WRITE_OPERATIONS = new Set([
  'insertOne',
  'updateOne',
  'updateMany',
  'findOneAndUpdate',
  'deleteOne',
  'deleteMany',
]);
const CLIENTS = 8;
const WARM_UP_PAYMENTS = 20;
const IDLE_WINDOW_MS = 10_000;
const API = '/2025-10-13';

type Series = Map<string, number>;
type Scrape = Record<string, string>;
type Cpu = Record<string, number>;

/** Prometheus samples of `name`, keyed by the values of `labels` joined by a space (other labels summed). */
export function samples(text: string, name: string, labels: string[]): Series {
  const out: Series = new Map();
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const key = labels.map((label) => new RegExp(`${label}="([^"]*)"`).exec(line)?.[1] ?? '').join(' ');
    out.set(key, (out.get(key) ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1)));
  }
  return out;
}

const fixed = (n: number) => Number(n.toFixed(3));
const sorted = <T>(record: Record<string, T>) =>
  Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
const sum = (record: Record<string, number>, keep: (key: string) => boolean = () => true) =>
  fixed(Object.entries(record).filter(([key]) => keep(key)).reduce((total, [, n]) => total + n, 0));

/** What the system does on its own, per second: measured between two scrapes `seconds` apart. */
interface Idle {
  from: Scrape;
  to: Scrape;
  seconds: number;
  cpuMsPerSecond: Cpu;
}

/** Per payment: the increase of each series of component `of` over the run, less its idle rate over the run. */
function perPayment(read: (text: string) => Series, of: Name, run: Run, idle?: Idle): Record<string, number> {
  const [after, before] = [read(run.after[of] ?? ''), read(run.before[of] ?? '')];
  const idleFrom = idle ? read(idle.from[of] ?? '') : new Map<string, number>();
  const idleTo = idle ? read(idle.to[of] ?? '') : new Map<string, number>();
  const idleOf = (
    key: string,
  ) => (idle ? ((idleTo.get(key) ?? 0) - (idleFrom.get(key) ?? 0)) / idle.seconds * run.seconds : 0);
  return Object.fromEntries(
    [...after]
      .map(([key, n]) => [key, fixed((n - (before.get(key) ?? 0) - idleOf(key)) / run.payments)] as const)
      .filter(([, n]) => n > 0.005).sort(([a], [b]) => a.localeCompare(b)),
  );
}

/** A platform's webhook endpoint that acknowledges every delivery and counts them. */
async function startReceiver(): Promise<{ url: string; received: () => number; close: () => Promise<void> }> {
  let received = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(200).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    received: () => received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface Component {
  name: Name;
  pid: number;
  metricsPort: number;
  stop: () => void;
}

const cpuOf = (components: Component[]): Cpu => Object.fromEntries(components.map((c) => [c.name, cpuMsOf(c.pid)]));
const total = (cpu: Cpu) => Object.values(cpu).reduce((a, b) => a + b, 0);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function scrapeAll(components: Component[]): Promise<Scrape> {
  return Object.fromEntries(
    await Promise.all(
      components.map(async (c) =>
        [c.name, await (await fetch(`http://127.0.0.1:${c.metricsPort}/metrics`)).text()] as const
      ),
    ),
  );
}

/** Waits (at most 120 s) until the processes spend at most 60 ms of CPU a second above idle and no webhook arrives. */
async function quiet(components: Component[], idleMsPerSecond: number, received: () => number): Promise<void> {
  for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
    const before = total(cpuOf(components));
    const heard = received();
    await pause(2_000);
    if ((total(cpuOf(components)) - before) / 2 < idleMsPerSecond + 60 && received() === heard) return;
  }
}

/** Starts each service, then the gateway, each a process of its own (into `started`); answers the gateway's port. */
async function startComponents(brokers: string[], dataRoot: string, started: Component[]): Promise<number> {
  const main = join(__dirname, '..', 'main.js');
  const addresses: Record<string, string> = Object.fromEntries(
    await Promise.all(
      SERVICES.map(async (s) => [ADDRESS_VARS[s], `127.0.0.1:${await freePort()}`]),
    ),
  );
  const shared = {
    ...addresses,
    KAFKA_BROKERS: brokers.join(','),
    INTERNAL_TOKEN: 'capacity-bench-internal-token-0123456789abcdef',
    MONGODB_URI: '',
    METRICS_HOST: '127.0.0.1',
    GATEWAY_RATE_LIMIT_REQUESTS: '100000000',
    SANDBOX_SETTLEMENT_STEP_MS: '200',
  };
  await Promise.all(SERVICES.map(async (service) => {
    const dataDir = join(dataRoot, service);
    mkdirSync(dataDir, { recursive: true });
    const metricsPort = await freePort();
    // A service has no HTTP API: the probe is its metrics endpoint (spawnAndWait's port is the probe's).
    const child = await spawnAndWait({
      script: main,
      args: [service],
      port: metricsPort,
      probe: '/metrics',
      env: {
        ...shared,
        DATA_DIR: dataDir,
        GRPC_ADDRESS: addresses[ADDRESS_VARS[service]],
        METRICS_PORT: String(metricsPort),
      },
    });
    started.push({ name: service, pid: child.pid!, metricsPort, stop: () => child.kill('SIGTERM') });
  }));
  const port = await freePort();
  const metricsPort = await freePort();
  const probe = `${API}/customers?limit=1`;
  const gateway = await spawnAndWait({
    script: main,
    args: ['gateway'],
    port,
    probe,
    env: { ...shared, METRICS_PORT: String(metricsPort) },
  });
  started.push({ name: 'gateway', pid: gateway.pid!, metricsPort, stop: () => gateway.kill('SIGTERM') });
  return port;
}

/**
 * Funds a payer, points the platform's webhooks at `webhookUrl`, and answers one create + execute (the
 * agent's with WRITES_BENCH_PATH=agent).
 */
async function paymentOf(port: number, webhookUrl: string): Promise<() => Promise<boolean>> {
  const base = `http://127.0.0.1:${port}${API}`;
  const api = client(base);
  const parties = await preparePayments(api);
  const config = await api('PATCH', '/config', { webhookEndpoint: webhookUrl });
  if (config.status !== 200) throw new Error(`PATCH /config webhookEndpoint answered ${config.status}`);
  if (process.env.WRITES_BENCH_PATH === 'agent') {
    const agentApi = await connectAgent(api, base, parties.customerId);
    return () => agentCreateAndExecute(agentApi, parties.source, parties.payee, []);
  }
  return async () => {
    const quote = await api('POST', '/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: parties.source },
      destination: { destinationType: 'ACCOUNT', accountId: parties.payee },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1000,
    });
    if (quote.status !== 201) return false;
    return (await api('POST', `/quotes/${quote.body.id}/execute`)).status === 200;
  };
}

/** Polls (outbox relays, settlement, leases, consumer fetches) cost CPU and store reads with or without payments. */
async function measureIdle(components: Component[]): Promise<Idle> {
  const cpuFrom = cpuOf(components);
  const from = await scrapeAll(components);
  const startedAt = Date.now();
  await pause(IDLE_WINDOW_MS);
  const to = await scrapeAll(components);
  const seconds = (Date.now() - startedAt) / 1000;
  const cpuTo = cpuOf(components);
  const rate = (name: string) => Number(((cpuTo[name] - cpuFrom[name]) / seconds).toFixed(1));
  const cpuMsPerSecond = Object.fromEntries(components.map((c) => [c.name, rate(c.name)]));
  return { from, to, seconds, cpuMsPerSecond };
}

/** One measured run: the scrapes and CPU around it, the payments that succeeded and the seconds it took. */
interface Run {
  before: Scrape;
  after: Scrape;
  cpuBefore: Cpu;
  cpuAfter: Cpu;
  payments: number;
  seconds: number;
  webhooks: number;
}

/** `count` payments made by `pay`, measured against the components' `idle` load; `received` counts webhooks. */
interface RunPlan {
  components: Component[];
  pay: () => Promise<boolean>;
  count: number;
  idle: Idle;
  received: () => number;
}

async function measureRun({ components, pay, count, idle, received }: RunPlan): Promise<Run> {
  const before = await scrapeAll(components);
  const cpuBefore = cpuOf(components);
  const receivedBefore = received();
  const startedAt = Date.now();
  let begun = 0;
  let payments = 0;
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    while (begun < count) {
      begun++;
      if (await pay()) payments++;
    }
  }));
  await quiet(components, total(idle.cpuMsPerSecond), received);
  const seconds = (Date.now() - startedAt) / 1000;
  const cpuAfter = cpuOf(components);
  const after = await scrapeAll(components);
  if (payments === 0) throw new Error('no payment succeeded');
  return { before, after, cpuBefore, cpuAfter, payments, seconds, webhooks: received() - receivedBefore };
}

export interface ServiceProcessesResult {
  clients: number;
  payments: number;
  /** CPU ms per create + execute, by process (gateway and each service), less each one's idle rate. */
  cpuMsPerPayment: Record<string, number>;
  cpuMsPerPaymentTotal: number;
  /** CPU ms a second each process spends idle (consumer fetches, relay and settlement polls), before the load. */
  idleCpuMsPerSecond: Record<string, number>;
  /** Store operations per payment in each service's database, by `collection operation`, less the idle rate of each. */
  storeOperationsPerPayment: Record<string, Record<string, number>>;
  /** Of those, the writes (insert, update, find-and-modify, delete) per payment, by service. */
  storeWritesPerPayment: Record<string, number>;
  /** Events the outbox relays published per payment, by topic. */
  eventsPerPayment: Record<string, number>;
  /** Webhook delivery attempts per payment by `outcome status` (notifications' webhook_deliveries_total). */
  webhookDeliveriesPerPayment: Record<string, number>;
  /** Requests the receiver answered per payment (the same from the platform's side). */
  webhooksReceivedPerPayment: number;
  /** The components with a consumer group on each topic (from `messaging_kafka_consumer_lag`). */
  consumers: Record<string, string[]>;
  /** Wall time from the first payment until every process was quiet again, and the payments a second over it. */
  wallMs: number;
  perSecond: number;
}

function figuresOf(components: Component[], run: Run, idle: Idle): ServiceProcessesResult {
  const storeOperations = (text: string) =>
    samples(text, 'store_operation_duration_seconds_count', ['collection', 'operation']);
  const published = (text: string) => samples(text, 'outbox_events_published_total', ['topic']);
  const deliveries = (text: string) => samples(text, 'webhook_deliveries_total', ['outcome', 'status']);
  const cpuMsPerPayment = Object.fromEntries(components.map(({ name }) => {
    const spent = run.cpuAfter[name] - run.cpuBefore[name] - idle.cpuMsPerSecond[name] * run.seconds;
    return [name, fixed(Math.max(0, spent) / run.payments)];
  }));
  const storeOperationsPerPayment = Object.fromEntries(
    SERVICES.map((s) => [s, perPayment(storeOperations, s, run, idle)]),
  );
  const eventsPerPayment: Record<string, number> = {};
  for (const s of SERVICES) {
    for (const [topic, n] of Object.entries(perPayment(published, s, run))) {
      eventsPerPayment[topic] = fixed((eventsPerPayment[topic] ?? 0) + n);
    }
  }
  // Which components consume each topic: their consumer groups' lag series (read from the broker at scrape time).
  const consumers: Record<string, string[]> = {};
  for (const { name } of components) {
    const lag = samples(run.after[name] ?? '', 'messaging_kafka_consumer_lag', ['topic']);
    for (const topic of lag.keys()) (consumers[topic] ??= []).push(name);
  }
  const isWrite = (key: string) => WRITE_OPERATIONS.has(key.split(' ')[1]);
  return {
    clients: CLIENTS,
    payments: run.payments,
    cpuMsPerPayment,
    cpuMsPerPaymentTotal: sum(cpuMsPerPayment),
    idleCpuMsPerSecond: idle.cpuMsPerSecond,
    storeOperationsPerPayment,
    storeWritesPerPayment: Object.fromEntries(SERVICES.map((s) => [s, sum(storeOperationsPerPayment[s], isWrite)])),
    eventsPerPayment: sorted(eventsPerPayment),
    webhookDeliveriesPerPayment: perPayment(deliveries, 'notifications', run),
    webhooksReceivedPerPayment: fixed(run.webhooks / run.payments),
    consumers: sorted(Object.fromEntries(Object.entries(consumers).map(([topic, names]) => [topic, names.sort()]))),
    wallMs: Math.round(run.seconds * 1000),
    perSecond: Number((run.payments / run.seconds).toFixed(1)),
  };
}

export async function runServiceProcesses(payments: number): Promise<ServiceProcessesResult> {
  const cluster = await startKafkaMockCluster(TOPICS);
  const dataRoot = mkdtempSync(join(tmpdir(), 'grid-capacity-'));
  const receiver = await startReceiver();
  const components: Component[] = [];
  try {
    const port = await startComponents(cluster.brokers, dataRoot, components);
    const pay = await paymentOf(port, receiver.url);
    // Warm up (JIT, connections, consumer groups joined), let it settle, then measure each process idle.
    for (let i = 0; i < WARM_UP_PAYMENTS; i++) await pay();
    await quiet(components, 400, receiver.received);
    const idle = await measureIdle(components);
    const run = await measureRun({ components, pay, count: payments, idle, received: receiver.received });
    return figuresOf(components, run, idle);
  } finally {
    for (const c of components) c.stop();
    await receiver.close();
    await cluster.stop();
    rmSync(dataRoot, { recursive: true, force: true });
  }
}
