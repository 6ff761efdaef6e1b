import { silentLogger } from '../../../lib/log';
import { createEmbeddedDocumentStore } from '../../../lib/store/embedded-document-store';
import { createWebhookDeliveryDocumentStore } from '../store/webhook-delivery-document-store';
import { createRecordWebhookNotification } from './record-webhook-notification';

const PLATFORM = 'Platform:00000000-0000-4000-8000-000000000001';
const event = (n: number, occurredAtMs: number) => ({
  id: `Event:00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  type: 'CUSTOMER.CREATED',
  version: 1,
  occurredAt: new Date(occurredAtMs).toISOString(),
  platformId: PLATFORM,
  aggregateId: `Customer:${n}`,
  data: { n },
});

function setup() {
  let now = 0;
  const endpoints = new Map<string, string>();
  const asked: number[] = [];
  let unreadable = false;
  const deliveries = createWebhookDeliveryDocumentStore(createEmbeddedDocumentStore());
  const record = createRecordWebhookNotification({
    deliveries,
    maxAttempts: 5,
    logger: silentLogger,
    clock: () => new Date(now),
    directory: {
      endpointOf: async (platformId: string) => {
        asked.push(now);
        if (unreadable) throw new Error('accounts unavailable');
        return endpoints.get(platformId);
      },
    },
  });
  const statuses = async () =>
    (await deliveries.list(PLATFORM, { limit: 20 })).items
      .sort((a, b) => a.dataJson.localeCompare(b.dataJson)).map((d) => d.status);
  return {
    record,
    endpoints,
    asked,
    statuses,
    at: (ms: number) => {
      now = ms;
    },
    unreadable: (value: boolean) => {
      unreadable = value;
    },
  };
}

test("an event from before the endpoint's last read began is answered by that read; later ones reread", async () => {
  const s = setup();
  s.at(2_000);
  await s.record(event(1, 1_000)); // read at 2,000: no endpoint
  await s.record(event(2, 1_500)); // occurred before that read: answered from it
  expect(s.asked).toEqual([2_000]);

  s.endpoints.set(PLATFORM, 'https://hooks.example.com');
  s.at(3_000);
  await s.record(event(3, 2_000)); // occurred when the read began (not before): read again, the endpoint counts at once
  await s.record(event(4, 2_500)); // before the read at 3,000: answered from it
  expect(s.asked).toEqual([2_000, 3_000]);
  expect(await s.statuses()).toEqual(['PENDING', 'PENDING']); // events 1 and 2 (no endpoint) left no record
});

test('a read that failed is not remembered: the next event reads again', async () => {
  const s = setup();
  s.at(2_000);
  s.unreadable(true);
  await s.record(event(1, 1_000));
  s.unreadable(false);
  await s.record(event(2, 1_000));
  expect(s.asked).toEqual([2_000, 2_000]);
  // unreadable: recorded, for the worker to read at the attempt; event 2 (no endpoint): none
  expect(await s.statuses()).toEqual(['PENDING']);
});

test('no payload is built for an event while the platform has no endpoint; one is built once it is set', async () => {
  const endpoints = new Map<string, string>();
  const built: string[] = [];
  const deliveries = createWebhookDeliveryDocumentStore(createEmbeddedDocumentStore());
  const record = createRecordWebhookNotification({
    deliveries,
    maxAttempts: 5,
    logger: silentLogger,
    directory: { endpointOf: async (platformId: string) => endpoints.get(platformId) },
    payloads: {
      isWebhookType: (type) => type === 'CUSTOMER.CREATED',
      isSent: async (n) => n.type === 'CUSTOMER.CREATED',
      build: async (n) => {
        built.push(n.id);
        return { ...n, dataJson: '{"built":true}' };
      },
    },
  });
  await record(event(1, Date.now()));
  await record({ ...event(2, Date.now()), type: 'NOT.A.WEBHOOK' });
  expect(built).toEqual([]);
  endpoints.set(PLATFORM, 'https://hooks.example.com');
  await record(event(3, Date.now() + 1));
  await record({ ...event(4, Date.now() + 1), type: 'NOT.A.WEBHOOK' });
  const log = (await deliveries.list(PLATFORM, { limit: 20 })).items;
  expect(log.map((d) => [d.id, d.dataJson])).toEqual([[built[0], '{"built":true}']]);
  expect(built).toHaveLength(1);
});
