import { silentLogger } from '../../../lib/log';
import { createEmbeddedDocumentStore } from '../../../lib/store/embedded-document-store';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/fixtures/webhook-receiver';
import { createWebhookHttpSender } from '../adapters/webhook-http-sender';
import { loadWebhookSigningKey } from '../adapters/webhook-signing-key';
import { DEFAULT_RETRY_POLICY } from '../domain/retry-schedule';
import { signWebhookBody } from '../domain/webhook-signature';
import { createWebhookDeliveryDocumentStore } from '../store/webhook-delivery-document-store';
import { createDeliverWebhook } from './deliver-webhook';
import { createRecordWebhookNotification } from './record-webhook-notification';
import { createWebhookDeliveryWorker } from './webhook-delivery-worker';

const PLATFORM = 'Platform:00000000-0000-4000-8000-000000000001';
const HOUR = 3_600_000;
const start = Date.parse('2026-01-01T00:00:00Z');
let now = start;
const clock = () => new Date(now);
const key = loadWebhookSigningKey(undefined);
let receiver: WebhookReceiver;

/** A seeded generator: the jitter is real, the run repeatable. */
function seeded(seed: number) {
  return () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
}

const event = (n: number) => ({
  id: `Event:00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  type: 'OUTGOING_PAYMENT.COMPLETED',
  version: 1,
  occurredAt: clock().toISOString(),
  platformId: PLATFORM,
  aggregateId: `Transaction:${n}`,
  data: { n },
});

beforeAll(async () => {
  // synthetic payment data: signatures and ids are checked here, not shapes
  receiver = await startWebhookReceiver({ publicKeyPem: key.publicKeyPem, now: () => now, checkContract: false });
});
afterAll(() => receiver.close());

test('a receiver down for an hour gets every webhook after, once each, same id, never 30 minutes apart', async () => {
  const deliveries = createWebhookDeliveryDocumentStore(createEmbeddedDocumentStore());
  await deliveries.prepare();
  const { deliver } = createDeliverWebhook({
    directory: { endpointOf: async () => receiver.url },
    sender: createWebhookHttpSender(),
    sign: (body) => signWebhookBody(body, key.privateKey),
    timeoutMs: 5_000,
    logger: silentLogger,
    clock,
  });
  const worker = createWebhookDeliveryWorker({
    deliveries,
    deliver,
    policy: DEFAULT_RETRY_POLICY,
    claimMs: 60_000,
    pollIntervalMs: 1_000,
    concurrency: 1,
    logger: silentLogger,
    clock,
    random: seeded(7),
  });
  const record = createRecordWebhookNotification({
    deliveries,
    maxAttempts: DEFAULT_RETRY_POLICY.maxAttempts,
    logger: silentLogger,
    clock,
  });
  receiver.answerWith(() => (now < start + HOUR ? { status: 503, body: { down: true } } : undefined));

  for (let n = 0; n < 20; n++) await record(event(n));
  // Simulated time: deliver whatever is due, then jump to the next due delivery.
  for (;;) {
    if (await worker.deliverOne()) continue;
    const pending = (await deliveries.list(PLATFORM, { limit: 100, status: 'PENDING' })).items;
    if (pending.length === 0) break;
    now = Math.max(now, Math.min(...pending.map((d) => d.dueAt)));
  }

  const log = (await deliveries.list(PLATFORM, { limit: 100 })).items;
  expect(log.map((d) => d.status)).toEqual(Array(20).fill('DELIVERED'));
  expect(receiver.accepted).toHaveLength(20);
  expect(new Set(receiver.accepted.map((w) => w.id))).toEqual(new Set(log.map((d) => d.id)));
  for (const d of log) {
    expect(receiver.arrivalsOf(d.id)).toBe(1);
    expect(receiver.arrivals.filter((w) => w.id === d.id).length).toBe(d.attemptCount);
    const times = d.attempts.map((a) => Date.parse(a.attemptedAt));
    const gaps = times.slice(1).map((t, i) => t - times[i]);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(30 * 60_000);
    expect(Date.parse(d.deliveredAt!)).toBeGreaterThanOrEqual(start + HOUR);
  }
  // Jitter: the receivers' retries spread out instead of arriving together.
  const deliveredAt = new Set(log.map((d) => d.deliveredAt));
  expect(deliveredAt.size).toBeGreaterThan(10);
});
