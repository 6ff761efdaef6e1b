import { randomUUID } from 'node:crypto';
import { AppError } from '../../../lib/errors';
import { newId } from '../../../lib/ids';
import { newDelivery, stateAfterAttempt } from '../domain/webhook-delivery';
import { TEST_WEBHOOK_TYPE } from '../domain/webhook-envelope';
import { DEFAULT_RETRY_POLICY } from '../domain/retry-schedule';
import type { DeliverWebhook } from './deliver-webhook';
import type { WebhookDeliveryStore } from './webhook-delivery-store';
import type { WebhookEndpointDirectory } from './webhook-endpoint-directory';

export interface TestWebhookResult {
  url: string;
  responseStatus: number;
  /** How long the endpoint took to answer. Its body is never returned: that would read back whatever answered there. */
  durationMs: number;
}

/** Under the gateway's 10 s deadline for the whole call. */
export const TEST_WEBHOOK_TIMEOUT_MS = 8_000;

/**
 * `POST /sandbox/webhooks/test`: one TEST webhook, sent while the caller waits, never retried.
 * It is logged like any other delivery.
 */
export function createSendTestWebhook(deps: {
  deliveries: WebhookDeliveryStore;
  directory: WebhookEndpointDirectory;
  deliverTo: DeliverWebhook['deliverTo'];
  timeoutMs: number;
  clock?: () => Date;
}) {
  const clock = deps.clock ?? (() => new Date());
  return async function sendTestWebhook(platformId: string): Promise<TestWebhookResult> {
    // Read fresh: a platform tests the endpoint it just configured, whatever a cache remembers.
    const url = await deps.directory.endpointOf(platformId, { fresh: true });
    if (!url) throw new AppError('WEBHOOK_ENDPOINT_NOT_SET', 'No webhook endpoint is configured for this platform');
    const now = clock();
    const timeoutMs = Math.min(deps.timeoutMs, TEST_WEBHOOK_TIMEOUT_MS);
    const notification = { id: newId('Webhook'), platformId, type: TEST_WEBHOOK_TYPE, dataJson: '{}' };
    const claimId = randomUUID();
    // Stored as already claimed by this call, for longer than the attempt can take.
    await deps.deliveries.insert({
      ...newDelivery(notification, now, 1),
      status: 'DELIVERING',
      attemptCount: 1,
      dueAt: now.getTime() + 2 * timeoutMs + 10_000,
      claimId,
    });
    const { attempt } = await deps.deliverTo(url, notification, 1, timeoutMs);
    await deps.deliveries.finishAttempt(
      notification.id,
      claimId,
      attempt,
      stateAfterAttempt({
        delivery: { attemptCount: 1, maxAttempts: 1 },
        outcome: attempt.outcome,
        now: clock(),
        policy: DEFAULT_RETRY_POLICY,
      }),
    );
    if (attempt.outcome !== 'ACKNOWLEDGED') {
      const details = attempt.statusCode !== undefined
        ? { url, responseStatus: attempt.statusCode, durationMs: attempt.durationMs }
        : { url, error: attempt.error, durationMs: attempt.durationMs };
      throw new AppError(
        'WEBHOOK_DELIVERY_ERROR',
        'The webhook endpoint did not acknowledge the test webhook',
        details,
      );
    }
    return { url, responseStatus: attempt.statusCode!, durationMs: attempt.durationMs };
  };
}
