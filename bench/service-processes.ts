import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startKafkaMockCluster } from '../test/kafka-mock/kafka-mock-cluster';
import { agentCreateAndExecute, client, connectAgent, cpuMsOf, freePort, preparePayments, spawnAndWait } from './payments-throughput.bench';

/**
 * The operator's topology on this machine: the gateway and the four services as separate processes
 * (`node dist/main.js <component>`), on Kafka (librdkafka's mock cluster: the real wire protocol),
 * each service with its own data directory and its own metrics port, and the platform's webhooks
 * pointed at a local receiver that acknowledges everything. A fixed number of create + execute,
 * each followed to COMPLETED and its webhooks delivered, gives per payment and per process: CPU
 * (/proc, less what the process spends idle), store operations by collection (the service's
 * database), events published by topic, and webhook deliveries by outcome.
 */
export const SERVICES = ['auth', 'accounts', 'quotes-transactions', 'notifications'] as const;
type Service = (typeof SERVICES)[number];
const ADDRESS_VARS: Record<Service, string> = {
  auth: 'AUTH_ADDRESS', accounts: 'ACCOUNTS_ADDRESS', 'quotes-transactions': 'QUOTES_TRANSACTIONS_ADDRESS', notifications: 'NOTIFICATIONS_ADDRESS',
};
const TOPICS = ['accounts.events.v1:3', 'auth.events.v1:3', 'payments.events.v1:6', 'notifications.events.v1:3'];
const WRITE_OPERATIONS = new Set(['insertOne', 'insertMany', 'updateOne', 'updateMany', 'findOneAndUpdate', 'replaceOne', 'deleteOne', 'deleteMany', 'bulkWrite']);
const CLIENTS = 8;
const IDLE_WINDOW_MS = 10_000;

type Series = Map<string, number>;

/** Prometheus counter samples of `name`, keyed by the values of `labels` joined by a space. */
export function samples(text: string, name: string, labels: string[]): Series {
  const out: Series = new Map();
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const key = labels.map((label) => new RegExp(`${label}="([^"]*)"`).exec(line)?.[1] ?? '').join(' ');
    out.set(key, (out.get(key) ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1)));
  }
  return out;
}

/** Per payment: the increase from `before` to `after`, less what the system does on its own (`idle`, per second, over `seconds`). */
function perPayment(after: Series, before: Series, payments: number, idle?: { from: Series; to: Series; seconds: number; over: number }) {
  const idleOf = (key: string) => (idle ? ((idle.to.get(key) ?? 0) - (idle.from.get(key) ?? 0)) / idle.seconds * idle.over : 0);
  return Object.fromEntries([...after]
    .map(([key, n]) => [key, Number(((n - (before.get(key) ?? 0) - idleOf(key)) / payments).toFixed(3))] as const)
    .filter(([, n]) => n > 0.005).sort(([a], [b]) => a.localeCompare(b)));
}

const sum = (record: Record<string, number>, keep: (key: string) => boolean = () => true) =>
  Number(Object.entries(record).filter(([key]) => keep(key)).reduce((total, [, n]) => total + n, 0).toFixed(3));

/** A platform's webhook endpoint that acknowledges every delivery and counts them. */
async function startReceiver(): Promise<{ url: string; received: () => number; close: () => Promise<void> }> {
  let received = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => { received++; res.writeHead(200).end('{}'); });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    received: () => received,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

interface Component { name: Service | 'gateway'; pid: number; metricsPort?: number; stop: () => void }

const cpuOf = (components: Component[]) => Object.fromEntries(components.map((c) => [c.name, cpuMsOf(c.pid)]));
const total = (cpu: Record<string, number>) => Object.values(cpu).reduce((a, b) => a + b, 0);

/** Waits until every process together spends at most 60 ms of CPU a second above their idle rate and the receiver's count stops moving (at most 120 s). */
async function quiet(components: Component[], idleMsPerSecond: number, received: () => number): Promise<void> {
  for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
    const before = total(cpuOf(components));
    const heard = received();
    await new Promise((r) => setTimeout(r, 2_000));
    if ((total(cpuOf(components)) - before) / 2 < idleMsPerSecond + 60 && received() === heard) return;
  }
}

export interface ServiceProcessesResult {
  clients: number;
  payments: number;
  /** CPU ms per create + execute, by process (gateway and each service), less each one's idle rate. */
  cpuMsPerPayment: Record<string, number>;
  cpuMsPerPaymentTotal: number;
  /** CPU ms a second each process spends idle (consumer polls, relay and settlement polls), measured before the load. */
  idleCpuMsPerSecond: Record<string, number>;
  /** Store operations per payment in each service's database, by `collection operation`, less the idle system's polls (at its measured rate over the run). */
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

async function scrapeAll(components: Component[]) {
  const texts = await Promise.all(components.filter((c) => c.metricsPort).map(async (c) =>
    [c.name, await (await fetch(`http://127.0.0.1:${c.metricsPort}/metrics`)).text()] as const));
  return Object.fromEntries(texts);
}

export async function runServiceProcesses(payments: number): Promise<ServiceProcessesResult> {
  const root = join(__dirname, '..');
  const cluster = await startKafkaMockCluster(TOPICS);
  const dataRoot = mkdtempSync(join(tmpdir(), 'grid-capacity-'));
  const receiver = await startReceiver();
  const components: Component[] = [];
  try {
    const addresses = Object.fromEntries(await Promise.all(SERVICES.map(async (s) => [ADDRESS_VARS[s], `127.0.0.1:${await freePort()}`])));
    const shared = {
      ...addresses, KAFKA_BROKERS: cluster.brokers.join(','), INTERNAL_TOKEN: 'capacity-bench-internal-token-0123456789abcdef',
      MONGODB_URI: '', METRICS_HOST: '127.0.0.1', GATEWAY_RATE_LIMIT_REQUESTS: '100000000', SANDBOX_SETTLEMENT_STEP_MS: '200',
    };
    await Promise.all(SERVICES.map(async (service) => {
      const dataDir = join(dataRoot, service);
      mkdirSync(dataDir, { recursive: true });
      const metricsPort = await freePort();
      const grpcPort = Number(addresses[ADDRESS_VARS[service]].split(':')[1]);
      // A service has no HTTP API: spawnAndWait's probe is its metrics endpoint, served once it started.
      const child = await spawnAndWait(join(root, 'main.js'), [service], metricsPort, '/metrics', {
        ...shared, DATA_DIR: dataDir, GRPC_ADDRESS: `127.0.0.1:${grpcPort}`, METRICS_PORT: String(metricsPort),
      });
      components.push({ name: service, pid: child.pid!, metricsPort, stop: () => child.kill('SIGTERM') });
    }));
    const port = await freePort();
    const gatewayMetrics = await freePort();
    const gateway = await spawnAndWait(join(root, 'main.js'), ['gateway'], port, '/2025-10-13/customers?limit=1', { ...shared, METRICS_PORT: String(gatewayMetrics) });
    components.push({ name: 'gateway', pid: gateway.pid!, metricsPort: gatewayMetrics, stop: () => gateway.kill('SIGTERM') });

    const base = `http://127.0.0.1:${port}/2025-10-13`;
    const api = client(base);
    const parties = await preparePayments(api);
    const config = await api('PATCH', '/config', { webhookEndpoint: receiver.url });
    if (config.status !== 200) throw new Error(`PATCH /config webhookEndpoint answered ${config.status}`);
    let pay = async () => {
      const quote = await api('POST', '/quotes', {
        source: { sourceType: 'ACCOUNT', accountId: parties.source }, destination: { destinationType: 'ACCOUNT', accountId: parties.payee },
        lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1000,
      });
      if (quote.status !== 201) return false;
      return (await api('POST', `/quotes/${quote.body.id}/execute`)).status === 200;
    };
    if (process.env.WRITES_BENCH_PATH === 'agent') {
      const agentApi = await connectAgent(api, base, parties.customerId);
      pay = () => agentCreateAndExecute(agentApi, parties.source, parties.payee, []);
    }
    // Warm up (JIT, connections, consumer groups joined), then measure each process's idle rate.
    for (let i = 0; i < 20; i++) await pay();
    await quiet(components, 400, receiver.received);
    // Polls (outbox relays, settlement, leases, consumers) cost CPU and store reads with or without payments: measured here, taken off the load's figures.
    const idleFrom = cpuOf(components);
    const idleScrapeFrom = await scrapeAll(components);
    const idleStarted = Date.now();
    await new Promise((r) => setTimeout(r, IDLE_WINDOW_MS));
    const idleScrapeTo = await scrapeAll(components);
    const idleSeconds = (Date.now() - idleStarted) / 1000;
    const idleTo = cpuOf(components);
    const idleCpuMsPerSecond = Object.fromEntries(components.map((c) => [c.name, Number(((idleTo[c.name] - idleFrom[c.name]) / idleSeconds).toFixed(1))]));

    const before = await scrapeAll(components);
    const cpuBefore = cpuOf(components);
    const receivedBefore = receiver.received();
    const started = Date.now();
    let begun = 0;
    let done = 0;
    await Promise.all(Array.from({ length: CLIENTS }, async () => {
      while (begun < payments) {
        begun++;
        if (await pay()) done++;
      }
    }));
    await quiet(components, total(idleCpuMsPerSecond), receiver.received);
    const wallMs = Date.now() - started;
    const cpuAfter = cpuOf(components);
    const after = await scrapeAll(components);
    if (done === 0) throw new Error('no payment succeeded');

    const cpuMsPerPayment = Object.fromEntries(components.map((c) => [c.name,
      Number(Math.max(0, (cpuAfter[c.name] - cpuBefore[c.name] - idleCpuMsPerSecond[c.name] * (wallMs / 1000)) / done).toFixed(3))]));
    const storeOperationsPerPayment = Object.fromEntries(SERVICES.map((s) => {
      const series = (text: string) => samples(text, 'store_operation_duration_seconds_count', ['collection', 'operation']);
      const idle = { from: series(idleScrapeFrom[s]), to: series(idleScrapeTo[s]), seconds: idleSeconds, over: wallMs / 1000 };
      return [s, perPayment(series(after[s]), series(before[s]), done, idle)];
    }));
    const eventsPerPayment: Record<string, number> = {};
    for (const s of SERVICES) {
      const series = (text: string) => samples(text, 'outbox_events_published_total', ['topic']);
      for (const [topic, n] of Object.entries(perPayment(series(after[s]), series(before[s]), done))) eventsPerPayment[topic] = Number(((eventsPerPayment[topic] ?? 0) + n).toFixed(3));
    }
    const deliveries = (text: string) => samples(text, 'webhook_deliveries_total', ['outcome', 'status']);
    // Which components consume each topic: their consumer groups' lag series (read from the broker at scrape time).
    const consumers: Record<string, string[]> = {};
    for (const c of components) {
      for (const key of samples(after[c.name] ?? '', 'messaging_kafka_consumer_lag', ['topic']).keys()) (consumers[key] ??= []).push(c.name);
    }
    for (const list of Object.values(consumers)) list.sort();
    return {
      clients: CLIENTS,
      payments: done,
      cpuMsPerPayment,
      cpuMsPerPaymentTotal: sum(cpuMsPerPayment),
      idleCpuMsPerSecond,
      storeOperationsPerPayment,
      storeWritesPerPayment: Object.fromEntries(SERVICES.map((s) => [s, sum(storeOperationsPerPayment[s], (key) => WRITE_OPERATIONS.has(key.split(' ')[1]))])),
      eventsPerPayment,
      webhookDeliveriesPerPayment: perPayment(deliveries(after.notifications), deliveries(before.notifications), done),
      webhooksReceivedPerPayment: Number(((receiver.received() - receivedBefore) / done).toFixed(3)),
      consumers: Object.fromEntries(Object.entries(consumers).sort(([a], [b]) => a.localeCompare(b))),
      wallMs,
      perSecond: Number((done / (wallMs / 1000)).toFixed(1)),
    };
  } finally {
    for (const c of components) c.stop();
    await receiver.close();
    await cluster.stop();
    rmSync(dataRoot, { recursive: true, force: true });
  }
}
