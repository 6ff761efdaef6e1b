import { Kafka, logLevel } from 'kafkajs';
import type { KafkaMockCluster } from '../kafka-mock/kafka-mock-cluster';
import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver';
import {
  allDeliveries,
  allTransactions,
  isSettled,
  preparePayer,
  startWorkload,
  type Acknowledged,
  type Api,
  type Payer,
} from '../reliability/crash-workload';

/**
 * Payments flowing through a running system while operators break things, and the check that
 * follows: every acknowledged payment exists, settles, and every final state reached the
 * platform's webhook receiver. Shared by the Kafka-outage and component-restart tests.
 */
export const PAYMENTS_TOPIC = 'payments.events.v1';
/** Payments carry most events: six partitions halve each one's backlog in the test broker (see watchConsumerLag). */
export const EVENT_TOPICS = [
  'accounts.events.v1:3',
  'auth.events.v1:3',
  `${PAYMENTS_TOPIC}:6`,
  'notifications.events.v1:3',
];
/** Short timings so a test sees consumer groups fall apart and come back. */
export const FAST_KAFKA_SYSTEM = {
  SANDBOX_SETTLEMENT_STEP_MS: '40',
  SETTLEMENT_POLL_MS: '20',
  QUOTE_VALIDITY_SECONDS: '15',
  LEDGER_RECOVERY_AFTER_MS: '500',
  WEBHOOK_RETRY_BASE_MS: '100',
  WEBHOOK_RETRY_MAX_DELAY_MS: '1000',
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_POLL_INTERVAL_MS: '50',
  // Kafka's session, heartbeat, stall and outbox timings are the shipped defaults: what is shown under outages is what
  // operators get.
};
/**
 * Two workers, each pausing this long after a payment: a steady load (about 10 payments/s here) whose
 * backlog over a 120 s outage stays within what the test broker keeps per partition (see watchConsumerLag).
 */
const PAUSE_BETWEEN_PAYMENTS_MS = 150;

export async function until<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(`${what}: not within ${timeoutMs} ms (last: ${JSON.stringify(value).slice(0, 400)})`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Polls until `read` answers an empty list; gives up only when `progress` has not moved for `stallMs`. */
async function untilProgressStops<T>(
  what: string,
  read: () => Promise<T[]>,
  progress: () => number,
  stallMs: number,
): Promise<void> {
  let last = progress();
  let movedAt = Date.now();
  for (;;) {
    const left = await read();
    if (left.length === 0) return;
    if (progress() !== last) {
      last = progress();
      movedAt = Date.now();
    }
    if (Date.now() - movedAt > stallMs) {
      throw new Error(
        `${what}: no progress for ${stallMs} ms (${left.length} left: ${JSON.stringify(left.slice(0, 5))})`,
      );
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

export const readiness = (rootUrl: string) => fetch(`${rootUrl}/readyz`).then((r) => r.status, () => 0);

/** /readyz with its body (which dependencies are degraded); status 0 when the gateway does not answer. */
export const readinessReport = (rootUrl: string) =>
  fetch(`${rootUrl}/readyz`)
    .then(
      async (r) => ({
        status: r.status,
        body: await r.json() as { status: string; dependencies: Record<string, string> },
      }),
      () => ({ status: 0, body: { status: 'no answer', dependencies: {} as Record<string, string> } }),
    );

/**
 * Polls /readyz until stopped: every answer other than 200 (with its time and body), and each
 * dependency ever reported degraded.
 */
export function watchReadiness(rootUrl: () => string, everyMs = 500) {
  const started = Date.now();
  const notReady: Array<{ atMs: number; status: number; body: unknown }> = [];
  const degraded = new Set<string>();
  let polls = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const { status, body } = await readinessReport(rootUrl());
      polls++;
      if (status !== 200) notReady.push({ atMs: Date.now() - started, status, body });
      for (const [name, state] of Object.entries(body.dependencies ?? {})) if (state === 'degraded') degraded.add(name);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    notReady,
    degraded,
    get polls() {
      return polls;
    },
    async stop() {
      running = false;
      await loop;
    },
  };
}

export interface PaymentTraffic {
  receiver: WebhookReceiver;
  acknowledged: Acknowledged;
  /** Stops the workers; what they were told succeeded is in `acknowledged`. */
  stop(): Promise<void>;
  /**
   * The endpoint was set then. Events before it leave no delivery at all; a SKIPPED one from before it
   * is still allowed (recorded while the endpoint could not be read, attempted before it was set).
   */
  endpointSetAt: string;
}

/** Points the platform's webhooks at a receiver, funds two payers and starts paying; resolves once webhooks flow. */
export async function startPaymentTraffic(api: Api): Promise<PaymentTraffic> {
  const key = await api('/webhooks/public-key');
  const receiver = await startWebhookReceiver({
    publicKeyPem: key.body.publicKeyPem ?? key.body.publicKey,
    toleranceMs: 10 * 60_000,
  });
  expect((await api('/config', { webhookEndpoint: receiver.url }, 'PATCH')).status).toBe(200);
  const endpointSetAt = new Date().toISOString();
  const payers: Payer[] = [];
  for (let i = 0; i < 2; i++) payers.push(await preparePayer(api, i));
  const acknowledged: Acknowledged = { transactions: new Set(), attempts: 0, failures: 0 };
  const workload = startWorkload({ api, payers, workers: 2, acknowledged, pauseMs: PAUSE_BETWEEN_PAYMENTS_MS });
  await until('webhooks flow', async () => receiver.accepted.length, (n) => n > 5, 60_000);
  return { receiver, acknowledged, stop: () => workload.stop(), endpointSetAt };
}

/**
 * After the traffic stopped: every acknowledged payment exists and settles, every delivery is
 * delivered, and the receiver heard each transaction's final state. The consumers may still work
 * through a backlog: the check waits while webhooks keep arriving and fails once they stop short,
 * with `diagnose` adding what it knows. Resolves with the transactions and how long the backlog took.
 */
export async function expectEveryChangeAnnounced(
  api: Api,
  traffic: PaymentTraffic,
  diagnose: (sample: string[]) => Promise<string>,
) {
  const stoppedAt = Date.now();
  const accepted = traffic.receiver.accepted;
  const transactions = await until(
    'every transaction settled',
    () => allTransactions(api),
    (all) => all.every(isSettled),
    180_000,
  );
  const ids = new Set(transactions.map((t) => t.id));
  expect([...traffic.acknowledged.transactions].filter((id) => !ids.has(id))).toEqual([]);
  const delivered = (d: { status: string; createdAt: string }) =>
    d.status === 'DELIVERED' || (d.status === 'SKIPPED' && d.createdAt < traffic.endpointSetAt);
  await until('every webhook delivered', () => allDeliveries(api), (all) => all.every(delivered), 180_000);
  const unannounced = () => {
    const finalStates = new Set(accepted.map((w) => `${w.data.id}/${w.data.status}`));
    return transactions.filter((t) => t.status !== 'EXPIRED' && !finalStates.has(`${t.id}/${t.status}`)).map((t) =>
      `${t.id}/${t.status}`
    );
  };
  await untilProgressStops('every final state announced', async () => unannounced(), () => accepted.length, 120_000)
    .catch(async (err) => {
      const missing = unannounced();
      const sample = missing.slice(0, 3).map((m) => m.split('/')[0]);
      const seen = sample.map((
        id,
      ) => [id, accepted.filter((w) => w.data.id === id).map((w) => `${w.type}:${w.data.status}`)]);
      throw new Error(
        `${err.message}\n${missing.length} of ${transactions.length} final states missing; webhooks of a sample: ${
          JSON.stringify(seen)
        }\n${await diagnose(sample)}`,
      );
    });
  return { transactions, backlogDrainedMs: Date.now() - stoppedAt };
}

/**
 * Samples a group's lag every second. librdkafka's mock broker keeps at most 5 MB per partition and
 * deletes the oldest messages beyond that, consumed or not (real Kafka keeps them for its retention
 * time): a group whose committed offset falls below the log start has lost events to the test broker,
 * not to the system, and `describe` says so.
 */
export function watchConsumerLag(cluster: KafkaMockCluster, topic: string, groupId: string) {
  const admin = new Kafka({ brokers: cluster.brokers, clientId: 'lag-watch', logLevel: logLevel.NOTHING }).admin();
  const connected = admin.connect();
  let maxLag = 0;
  const droppedByBroker: string[] = [];
  const sample = async () => {
    await connected;
    const [ends, committed] = await Promise.all([
      admin.fetchTopicOffsets(topic),
      admin.fetchOffsets({ groupId, topics: [topic] }),
    ]);
    for (const end of ends) {
      const at = Number(committed[0]?.partitions.find((p) => p.partition === end.partition)?.offset ?? -1);
      if (at < 0) continue;
      maxLag = Math.max(maxLag, Number(end.high) - at);
      if (Number(end.low) > at) {
        droppedByBroker.push(`partition ${end.partition}: committed ${at}, log starts at ${end.low}`);
      }
    }
  };
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return; // the broker is frozen: the last sample still waits
    busy = true;
    void sample().catch(() => undefined).finally(() => (busy = false));
  }, 1_000);
  return {
    get maxLag() {
      return maxLag;
    },
    describe: () =>
      droppedByBroker.length
        ? `THE TEST BROKER DELETED UNCONSUMED EVENTS (max lag ${maxLag}): ${droppedByBroker.slice(0, 3).join('; ')}`
        : `max consumer lag ${maxLag}; the test broker deleted nothing unconsumed`,
    async stop() {
      clearInterval(timer);
      await connected.then(() => admin.disconnect(), () => undefined);
    },
  };
}

/** What the topic holds for some records (diagnostics of a failure): read from the beginning by a fresh group. */
export async function eventsInTopic(cluster: KafkaMockCluster, topic: string, keys: Set<string>) {
  const consumer = new Kafka({ brokers: cluster.brokers, clientId: 'diagnostics', logLevel: logLevel.NOTHING })
    .consumer({ groupId: `diagnostics-${Date.now()}`, maxWaitTimeInMs: 200 });
  const found: Record<string, string[]> = {};
  let total = 0;
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ partition, message }) => {
      total++;
      const key = message.key?.toString() ?? '';
      if (keys.has(key)) {
        (found[key] ??= []).push(`${message.headers?.['event-type']?.toString()}@${partition}:${message.offset}`);
      }
    },
  });
  await new Promise((r) => setTimeout(r, 20_000));
  await consumer.disconnect();
  return { total, found };
}

/** The last lines a process logged about its consumers and relays. */
export function busLogLines(logs: Array<Record<string, unknown>>): string {
  return logs.filter((l) => /consumer|kafkajs|outbox|relay/.test(String(l.msg) + String(l.kafkajs ?? ''))).slice(-40)
    .map((l) => `${l.time} ${l.level} ${l.msg} ${l.group ?? ''} ${l.topic ?? ''}`).join('\n');
}
