import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startKafkaMockCluster, type KafkaMockCluster } from '../kafka-mock/kafka-mock-cluster';
import { apiOf } from '../reliability/crash-workload';
import { killSystemProcess, startComponentProcess, type SystemProcess } from '../reliability/system-process';
import {
  busLogLines,
  EVENT_TOPICS,
  expectEveryChangeAnnounced,
  FAST_KAFKA_SYSTEM,
  PAYMENTS_TOPIC,
  readiness,
  readinessReport,
  startPaymentTraffic,
  until,
  watchConsumerLag,
  type PaymentTraffic,
} from './payment-traffic';
import { freePort } from '../fixtures/free-port';

/**
 * The operator's deployment: the gateway and the four services as separate processes on Kafka, each
 * with its own data directory. While payments flow, each component in turn is killed (SIGKILL, no
 * goodbye) and started again: /readyz answers 503 while a service on the path of a payment is gone,
 * but stays 200 without notifications (named degraded) while payments keep succeeding; afterwards
 * every acknowledged payment settles and every final state reaches the platform's webhook receiver.
 */
jest.setTimeout(15 * 60_000);

const SERVICES = ['auth', 'accounts', 'quotes-transactions', 'notifications'] as const;
const ADDRESS_VARS = {
  auth: 'AUTH_ADDRESS',
  accounts: 'ACCOUNTS_ADDRESS',
  'quotes-transactions': 'QUOTES_TRANSACTIONS_ADDRESS',
  notifications: 'NOTIFICATIONS_ADDRESS',
};
type Component = (typeof SERVICES)[number] | 'gateway';

let cluster: KafkaMockCluster;
let dataRoot: string;
const running = new Map<Component, SystemProcess>();
const logs: Array<Record<string, unknown>> = [];
let envOf: (component: Component) => NodeJS.ProcessEnv;

async function start(component: Component): Promise<SystemProcess> {
  const child = await startComponentProcess(component, envOf(component), 120_000);
  running.set(component, child);
  return child;
}

async function kill(component: Component): Promise<void> {
  const child = running.get(component);
  running.delete(component);
  if (!child) return;
  await killSystemProcess(child, 'SIGKILL');
  logs.push(...child.logs);
}

beforeAll(async () => {
  cluster = await startKafkaMockCluster(EVENT_TOPICS);
  dataRoot = mkdtempSync(join(tmpdir(), 'grid-components-'));
  const addresses = Object.fromEntries(
    await Promise.all(SERVICES.map(async (s) => [ADDRESS_VARS[s], `127.0.0.1:${await freePort()}`])),
  );
  const port = String(await freePort());
  const shared = {
    ...FAST_KAFKA_SYSTEM,
    ...addresses,
    KAFKA_BROKERS: cluster.brokers.join(','),
    INTERNAL_TOKEN: 'components-test-internal-token-0123456789',
  };
  envOf = (component) => {
    if (component === 'gateway') return { ...shared, PORT: port };
    const dataDir = join(dataRoot, component);
    mkdirSync(dataDir, { recursive: true });
    return { ...shared, DATA_DIR: dataDir, GRPC_ADDRESS: addresses[ADDRESS_VARS[component]] };
  };
  await Promise.all(SERVICES.map(start));
  await start('gateway');
}, 10 * 60_000);

afterAll(async () => {
  await Promise.all([...running.keys()].map(kill));
  await cluster?.stop();
  if (dataRoot) rmSync(dataRoot, { recursive: true, force: true });
});

test('each component killed and started again while payments flow: nothing acknowledged is lost', async () => {
  const rootUrl = () => running.get('gateway')?.rootUrl ?? 'http://127.0.0.1:1';
  const api = apiOf(rootUrl);
  await until('ready as separate processes', () => readiness(rootUrl()), (s) => s === 200, 120_000);
  const lag = watchConsumerLag(cluster, PAYMENTS_TOPIC, `notifications-webhooks.${PAYMENTS_TOPIC}`);
  let traffic: PaymentTraffic | undefined;
  const readyAgainMs: Record<string, number> = {};
  let paidWithoutNotifications = 0;
  try {
    traffic = await startPaymentTraffic(api);
    for (const component of [...SERVICES, 'gateway'] as const) {
      await kill(component);
      // Health tells the truth: without a service on the path of a payment the API is not ready (without the gateway
      // there is no one to ask).
      if (component === 'notifications') {
        // Webhooks wait in the outbox: the gateway stays ready, naming what is degraded, and payments go on.
        const paidBefore = traffic.acknowledged.transactions.size;
        await until(
          '/readyz 200 naming notifications degraded',
          () => readinessReport(rootUrl()),
          (r) => r.status === 200 && r.body.dependencies.notifications === 'degraded',
          15_000,
        );
        await until(
          'payments without notifications',
          async () => traffic!.acknowledged.transactions.size - paidBefore,
          (n) => n >= 3,
          60_000,
        );
        paidWithoutNotifications = traffic.acknowledged.transactions.size - paidBefore;
        expect((await readinessReport(rootUrl())).status).toBe(200);
      } else if (component !== 'gateway') {
        await until(`/readyz 503 without ${component}`, () => readiness(rootUrl()), (s) => s === 503, 15_000);
      }
      await new Promise((r) => setTimeout(r, 3_000)); // payments keep being attempted meanwhile
      const restartedAt = Date.now();
      await start(component);
      await until(`/readyz 200 with ${component} back`, () => readiness(rootUrl()), (s) => s === 200, 120_000);
      readyAgainMs[component] = Date.now() - restartedAt;
      await new Promise((r) => setTimeout(r, 3_000));
    }
    await traffic.stop();

    const { backlogDrainedMs } = await expectEveryChangeAnnounced(
      api,
      traffic,
      async () => `${lag.describe()}\n${busLogLines([...logs, ...[...running.values()].flatMap((p) => p.logs)])}`,
    );
    const figures = {
      payments: traffic.acknowledged.transactions.size,
      attempts: traffic.acknowledged.attempts,
      failedDuringRestarts: traffic.acknowledged.failures,
      webhooks: traffic.receiver.accepted.length,
      backlogDrainedMs,
      maxConsumerLag: lag.maxLag,
      readyAgainMs,
      paidWithoutNotifications,
    };
    process.stdout.write(`component restarts: ${JSON.stringify(figures)}\n`);
  } finally {
    await lag.stop();
    await traffic?.receiver.close();
  }
});
