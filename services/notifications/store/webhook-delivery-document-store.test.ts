import { createEmbeddedDocumentStore } from '../../../lib/store/embedded-document-store';
import { newDelivery } from '../domain/webhook-delivery';
import { createWebhookDeliveryDocumentStore } from './webhook-delivery-document-store';

const PLATFORM = 'Platform:00000000-0000-4000-8000-000000000001';
const notification = (n: number) => ({
  id: `Webhook:00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  type: 'CUSTOMER.CREATED',
  platformId: PLATFORM,
  dataJson: '{}',
  occurredAt: '2026-01-01T00:00:00.000Z',
});

test('the delivery log forgets deliveries that ended before the retention horizon, never those still due', async () => {
  const store = createWebhookDeliveryDocumentStore(createEmbeddedDocumentStore());
  await store.prepare();
  const old = new Date('2026-01-01T00:00:00.000Z');
  const recent = new Date('2026-03-01T00:00:00.000Z');
  await store.insert({ ...newDelivery(notification(1), old, 5), status: 'DELIVERED' });
  await store.insert({ ...newDelivery(notification(2), old, 5), status: 'FAILED' });
  await store.insert({ ...newDelivery(notification(3), old, 5), status: 'SKIPPED' });
  await store.insert(newDelivery(notification(4), old, 5));
  await store.insert({ ...newDelivery(notification(5), recent, 5), status: 'DELIVERED' });
  expect(await store.forgetFinished(new Date('2026-02-01T00:00:00.000Z'))).toBe(3);
  const left = (await store.list(PLATFORM, { limit: 10 })).items.map((d) => d.id);
  expect(left.sort()).toEqual([notification(4).id, notification(5).id].sort());
});
