import { silentLogger } from '../../../lib/log';
import { createEmbeddedDocumentStore } from '../../../lib/store/embedded-document-store';
import { createWebhookDeliveryDocumentStore } from '../store/webhook-delivery-document-store';
import { createRecordWebhookNotification } from './record-webhook-notification';

const PLATFORM = 'Platform:00000000-0000-4000-8000-000000000001';
const event = (n: number, occurredAtMs: number) => ({
  id: `Event:00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, type: 'CUSTOMER.CREATED', version: 1,
  occurredAt: new Date(occurredAtMs).toISOString(), platformId: PLATFORM, aggregateId: `Customer:${n}`, data: { n },
});

function setup() {
  let now = 0;
  const endpoints = new Map<string, string>();
  const asked: number[] = [];
  let unreadable = false;
  const deliveries = createWebhookDeliveryDocumentStore(createEmbeddedDocumentStore());
  const record = createRecordWebhookNotification({
    deliveries, maxAttempts: 5, logger: silentLogger, clock: () => new Date(now),
    directory: { endpointOf: async (platformId: string) => { asked.push(now); if (unreadable) throw new Error('accounts unavailable'); return endpoints.get(platformId); } },
  });
  const statuses = async () => (await deliveries.list(PLATFORM, { limit: 20 })).items
    .sort((a, b) => a.dataJson.localeCompare(b.dataJson)).map((d) => d.status);
  return { record, endpoints, asked, statuses, at: (ms: number) => { now = ms; }, unreadable: (value: boolean) => { unreadable = value; } };
}

test('an event that occurred before the last read of the endpoint began is answered from that read; a later one reads again', async () => {
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
  expect(await s.statuses()).toEqual(['SKIPPED', 'SKIPPED', 'PENDING', 'PENDING']);
});

test('a read that failed is not remembered: the next event reads again', async () => {
  const s = setup();
  s.at(2_000);
  s.unreadable(true);
  await s.record(event(1, 1_000));
  s.unreadable(false);
  await s.record(event(2, 1_000));
  expect(s.asked).toEqual([2_000, 2_000]);
  expect(await s.statuses()).toEqual(['PENDING', 'SKIPPED']); // unreadable: left for the worker to read at the attempt
});
