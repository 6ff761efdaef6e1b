import { isId } from '../../../lib/ids';
import { isAcknowledged } from './webhook-delivery';
import { webhookBody, webhookIdOf, webhookNotificationOf } from './webhook-envelope';

const event = {
  id: 'Event:0b8f5c2e-3f7a-4c1d-9a55-1f2e3d4c5b6a',
  type: 'OUTGOING_PAYMENT.COMPLETED',
  version: 1,
  occurredAt: '2026-01-01T00:00:00.000Z',
  platformId: 'Platform:00000000-0000-4000-8000-000000000001',
  aggregateId: 'Transaction:1',
  data: { id: 'Transaction:1', status: 'COMPLETED', amount: 10550 },
};

test('the envelope is {id, type, timestamp, data}; the timestamp is the send time, so it is signed', () => {
  const notification = webhookNotificationOf(event)!;
  const first = webhookBody(notification, new Date('2026-01-01T00:00:05Z'));
  expect(JSON.parse(first)).toEqual({
    id: notification.id,
    type: 'OUTGOING_PAYMENT.COMPLETED',
    timestamp: '2026-01-01T00:00:05.000Z',
    data: event.data,
  });
  expect(Object.keys(JSON.parse(first))).toEqual(['id', 'type', 'timestamp', 'data']);
  const retry = webhookBody(notification, new Date('2026-01-01T00:10:00Z'));
  expect(JSON.parse(retry).id).toBe(notification.id);
  expect(retry).not.toBe(first);
});

test('the webhook id is a Webhook id derived from the event id: same event, same id', () => {
  expect(isId('Webhook', webhookIdOf(event.id))).toBe(true);
  expect(webhookIdOf(event.id)).toBe(webhookNotificationOf(event)!.id);
  expect(webhookIdOf('Event:00000000-0000-4000-8000-000000000002')).not.toBe(webhookIdOf(event.id));
});

test('events of every kind pass with their type; events without a platform are dropped', () => {
  expect(webhookNotificationOf({ ...event, type: 'CUSTOMER.CREATED' })!.type).toBe('CUSTOMER.CREATED');
  expect(webhookNotificationOf({ ...event, platformId: '' })).toBeUndefined();
});

test.each([[200, true], [204, true], [299, true], [409, true], [301, false], [400, false], [404, false], [500, false], [
  503,
  false,
]])(
  'an answer %i acknowledges: %s',
  (status, acknowledged) => expect(isAcknowledged(status)).toBe(acknowledged),
);
