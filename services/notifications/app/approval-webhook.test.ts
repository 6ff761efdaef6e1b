import { silentLogger } from '../../../lib/log';
import { createEmbeddedDocumentStore } from '../../../lib/store/embedded-document-store';
import { DEFAULT_RETRY_POLICY } from '../domain/retry-schedule';
import type { DeliveryAttempt, WebhookDelivery } from '../domain/webhook-delivery';
import type { WebhookNotification } from '../domain/webhook-envelope';
import { createWebhookDeliveryDocumentStore } from '../store/webhook-delivery-document-store';
import { createRecordWebhookNotification } from './record-webhook-notification';
import { createWebhookDeliveryWorker } from './webhook-delivery-worker';

const PLATFORM = 'Platform:00000000-0000-4000-8000-000000000001';
const event = (n: number) => ({
  id: `Event:00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  type: 'INCOMING_PAYMENT.APPROVAL_REQUESTED',
  version: 1,
  occurredAt: new Date().toISOString(),
  platformId: PLATFORM,
  aggregateId: `Transaction:${n}`,
  data: { id: `Transaction:${n}`, status: 'PENDING' },
});

test('an approval webhook is attempted once, whatever the answer, and its answer is reported', async () => {
  const deliveries = createWebhookDeliveryDocumentStore(createEmbeddedDocumentStore());
  const reported: Array<[string | undefined, number | undefined]> = [];
  const worker = createWebhookDeliveryWorker({
    deliveries,
    policy: DEFAULT_RETRY_POLICY,
    claimMs: 60_000,
    pollIntervalMs: 1_000,
    concurrency: 1,
    logger: silentLogger,
    deliver: async (_d, attempt) => ({
      attempt: { attempt, attemptedAt: new Date().toISOString(), durationMs: 1, statusCode: 503, outcome: 'REJECTED' },
    }),
    attempted: async (d: WebhookDelivery, a: DeliveryAttempt) => {
      reported.push([d.approvalFor, a.statusCode]);
    },
  });
  const record = createRecordWebhookNotification({
    deliveries,
    maxAttempts: DEFAULT_RETRY_POLICY.maxAttempts,
    logger: silentLogger,
    directory: { endpointOf: async () => 'https://hooks.example.com' },
  });
  await record(event(1));
  while (await worker.deliverOne());
  const [delivery] = (await deliveries.list(PLATFORM, { limit: 10 })).items;
  expect(delivery).toMatchObject({
    type: 'INCOMING_PAYMENT.PENDING',
    approvalFor: 'Transaction:1',
    status: 'FAILED',
    attemptCount: 1,
    maxAttempts: 1,
  });
  expect(reported).toEqual([['Transaction:1', 503]]);
});

test('with no endpoint the approval webhook is not recorded and payments is told there is no one to ask', async () => {
  const deliveries = createWebhookDeliveryDocumentStore(createEmbeddedDocumentStore());
  const skipped: WebhookNotification[] = [];
  const record = createRecordWebhookNotification({
    deliveries,
    maxAttempts: 5,
    logger: silentLogger,
    directory: { endpointOf: async () => undefined },
    skippedApproval: async (d) => {
      skipped.push(d);
    },
  });
  await record(event(2));
  // redelivered: told again (payments ignores an answer for a payment no longer waiting for one)
  await record(event(2));
  expect(skipped.map((d) => [d.approvalFor, d.type])).toEqual([['Transaction:2', 'INCOMING_PAYMENT.PENDING'], [
    'Transaction:2',
    'INCOMING_PAYMENT.PENDING',
  ]]);
  expect((await deliveries.list(PLATFORM, { limit: 10 })).items).toEqual([]);
});
