import { createInProcessEventBus } from '../../lib/bus/in-process-event-bus';
import { newEvent } from '../../lib/bus/outbox';
import type { EventBus } from '../../lib/bus/event-bus';
import { silentLogger } from '../../lib/log';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { createEmbeddedDocumentStore } from '../../lib/store/embedded-document-store';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/fixtures/webhook-receiver';
import { createWebhookNotifications, WEBHOOK_SOURCE_TOPICS } from './webhook-notifications';

const PLATFORM = 'Platform:00000000-0000-4000-8000-000000000001';
const OTHER = 'Platform:00000000-0000-4000-8000-000000000002';
const env = { WEBHOOK_RETRY_BASE_MS: '10', WEBHOOK_RETRY_MAX_DELAY_MS: '50', WEBHOOK_POLL_INTERVAL_MS: '20' };

let bus: EventBus;
let receiver: WebhookReceiver;
let webhooks: ReturnType<typeof createWebhookNotifications>;
let store: ReturnType<typeof createEmbeddedDocumentStore>;
let endpoints: Map<string, string>;
/** Simulated time passing: added to the real clock the service reads. */
let offsetMs = 0;

beforeEach(async () => {
  bus = createInProcessEventBus({ logger: silentLogger });
  endpoints = new Map<string, string>();
  store = createEmbeddedDocumentStore();
  offsetMs = 0;
  webhooks = createWebhookNotifications(
    { store, bus, logger: silentLogger, peers: {} as PeerClients, env },
    {
      endpointOf: async (platformId) => endpoints.get(platformId),
      extensionTypesOf: async (platformId) => (platformId === OTHER ? ['CUSTOMER.CREATED'] : []),
    },
    { clock: () => new Date(Date.now() + offsetMs) },
  );
  await webhooks.start();
  // Synthetic data: the receiver checks signatures and ids here, not the records' shapes.
  receiver = await startWebhookReceiver({ publicKeyPem: webhooks.publicKeyPem, checkContract: false });
  endpoints.set(PLATFORM, receiver.url);
});
afterEach(async () => {
  await webhooks.stop();
  await bus.close();
  await receiver.close();
});

test('each topic is consumed; each event reaches its platform once, signed, as {id,type,timestamp,data}', async () => {
  const kinds = ['CUSTOMER.KYC_APPROVED', 'VERIFICATION.APPROVED', 'OUTGOING_PAYMENT.COMPLETED'];
  const events = WEBHOOK_SOURCE_TOPICS.map((topic, i) => ({
    topic,
    event: newEvent({
      type: kinds[i],
      version: 1,
      platformId: PLATFORM,
      aggregateId: `Agg:${i}`,
      data: { n: i },
    }),
  }));
  for (const { topic, event } of events) await bus.publish(topic, [event]);
  await receiver.waitFor(() => receiver.accepted.length === events.length);
  expect(receiver.accepted.map((w) => w.type).sort()).toEqual(events.map(({ event }) => event.type).sort());
  for (const w of receiver.accepted) {
    expect(w.id).toMatch(/^Webhook:[0-9a-f-]{36}$/);
    expect(Object.keys(w)).toEqual(['id', 'type', 'timestamp', 'data']);
  }
  expect(receiver.refused).toBe(0);
});

test('the same event delivered again (the bus is at-least-once) is not notified again', async () => {
  const event = newEvent({
    type: 'OUTGOING_PAYMENT.COMPLETED',
    version: 1,
    platformId: PLATFORM,
    aggregateId: 'Transaction:1',
    data: { id: 'Transaction:1' },
  });
  await bus.publish('payments.events.v1', [event]);
  await bus.publish('payments.events.v1', [event]);
  await receiver.waitFor(() => receiver.accepted.length === 1);
  await bus.publish('payments.events.v1', [event]);
  const marker = newEvent({
    type: 'OUTGOING_PAYMENT.FAILED',
    version: 1,
    platformId: PLATFORM,
    aggregateId: 'Transaction:1',
    data: {},
  });
  await bus.publish('payments.events.v1', [marker]); // same aggregate: handled after the duplicates
  await receiver.waitFor(() => receiver.accepted.some((w) => w.type === 'OUTGOING_PAYMENT.FAILED'));
  expect(receiver.arrivals.filter((w) => w.type === 'OUTGOING_PAYMENT.COMPLETED')).toHaveLength(1);
});

test('a receiver that fails, then recovers, gets every event exactly once', async () => {
  receiver.setFailures(7, 503);
  const events = Array.from({ length: 5 }, (_, i) =>
    newEvent({
      type: 'CUSTOMER.KYC_PENDING',
      version: 1,
      platformId: PLATFORM,
      aggregateId: `Customer:${i}`,
      data: { i },
    }));
  await bus.publish('accounts.events.v1', events);
  await receiver.waitFor(() => receiver.accepted.length === events.length);
  expect(receiver.accepted.map((w) => w.data.i).sort()).toEqual([0, 1, 2, 3, 4]);
  expect(receiver.arrivals.length).toBe(events.length + 7);
  for (const w of receiver.accepted) expect(receiver.arrivalsOf(w.id)).toBe(1);
});

test('events of a platform without an endpoint are skipped, not sent elsewhere', async () => {
  await bus.publish('accounts.events.v1', [newEvent({
    type: 'CUSTOMER.KYC_PENDING',
    version: 1,
    platformId: OTHER,
    aggregateId: 'Customer:x',
    data: { to: 'other' },
  })]);
  await bus.publish('accounts.events.v1', [newEvent({
    type: 'CUSTOMER.KYC_PENDING',
    version: 1,
    platformId: PLATFORM,
    aggregateId: 'Customer:y',
    data: { to: 'platform' },
  })]);
  await receiver.waitFor(() => receiver.accepted.length === 1);
  expect(receiver.accepted[0].data).toEqual({ to: 'platform' });
  expect(receiver.arrivals).toHaveLength(1);
});

test('delivery records are purged after the retention period (30 days by default); pending ones are not', async () => {
  const failing = await startWebhookReceiver({ publicKeyPem: webhooks.publicKeyPem, checkContract: false });
  failing.setFailures(1_000_000, 503);
  endpoints.set(OTHER, failing.url);
  try {
    const events = Array.from({ length: 4 }, (_, i) =>
      newEvent({
        type: 'OUTGOING_PAYMENT.COMPLETED',
        version: 1,
        platformId: PLATFORM,
        aggregateId: `Transaction:${i}`,
        data: { i },
      }));
    await bus.publish('payments.events.v1', [
      ...events,
      newEvent({
        type: 'OUTGOING_PAYMENT.COMPLETED',
        version: 1,
        platformId: OTHER,
        aggregateId: 'Transaction:x',
        data: {},
      }),
    ]);
    await receiver.waitFor(() => receiver.accepted.length === 4);
    await failing.waitFor(() => failing.arrivals.length >= 1);
    const records = store.collection('webhook_deliveries');
    const stored = async () => (await records.find({}, {})).map((d) => [d.platformId, d.status]);
    for (const end = Date.now() + 10_000;; await new Promise((r) => setTimeout(r, 20))) {
      const delivered = (await stored()).filter(([platformId, status]) =>
        platformId === PLATFORM && status === 'DELIVERED'
      );
      if (delivered.length === 4) break;
      if (Date.now() > end) throw new Error('deliveries not recorded in time');
    }
    expect(await stored()).toHaveLength(5);

    offsetMs = 29 * 86_400_000;
    await webhooks.purgeExpiredDeliveries();
    expect(await stored()).toHaveLength(5);

    offsetMs = 31 * 86_400_000;
    await webhooks.purgeExpiredDeliveries();
    const left = await stored();
    expect(left).toHaveLength(1);
    expect(left[0][0]).toBe(OTHER);
    expect(['PENDING', 'DELIVERING']).toContain(left[0][1]);
  } finally {
    await failing.close();
  }
});

test('a type the reference does not have reaches only platforms that opted into it; an unknown one none', async () => {
  const other = await startWebhookReceiver({ publicKeyPem: webhooks.publicKeyPem, checkContract: false });
  endpoints.set(OTHER, other.url);
  try {
    const extension = (platformId: string) =>
      newEvent({
        type: 'CUSTOMER.CREATED',
        version: 1,
        platformId,
        aggregateId: 'Customer:z',
        data: { to: platformId },
      });
    await bus.publish('accounts.events.v1', [
      extension(PLATFORM),
      extension(OTHER),
      newEvent({
        type: 'SOMETHING.ELSE',
        version: 1,
        platformId: OTHER,
        aggregateId: 'Customer:z',
        data: {},
      }),
    ]);
    await bus.publish('accounts.events.v1', [
      newEvent({
        type: 'CUSTOMER.KYC_PENDING',
        version: 1,
        platformId: PLATFORM,
        aggregateId: 'Customer:z',
        data: {},
      }),
      newEvent({
        type: 'CUSTOMER.KYC_PENDING',
        version: 1,
        platformId: OTHER,
        aggregateId: 'Customer:z',
        data: {},
      }),
    ]);
    await receiver.waitFor(() => receiver.accepted.length === 1 && other.accepted.length === 2);
    expect(receiver.accepted.map((w) => w.type)).toEqual(['CUSTOMER.KYC_PENDING']);
    expect(other.accepted.map((w) => w.type)).toEqual(['CUSTOMER.CREATED', 'CUSTOMER.KYC_PENDING']);
  } finally {
    await other.close();
  }
});
