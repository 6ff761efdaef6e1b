import type { EventBus } from '../../../lib/bus/event-bus';
import { newEvent } from '../../../lib/bus/outbox';
import type { Logger } from '../../../lib/log';
import { APPROVAL_ANSWERED_EVENT, approvalAnswerOf } from '../domain/approval-request';
import type { DeliveryAttempt, WebhookDelivery } from '../domain/webhook-delivery';

export const APPROVAL_ANSWERS_TOPIC = 'notifications.events.v1';

/**
 * Tells payments what the platform answered to an approval webhook. Lost (a crash right after the
 * attempt), the payment's own deadline fails it with PAYMENT_APPROVAL_WEBHOOK_ERROR: never credited unasked.
 */
export function createReportApprovalAnswer(deps: { bus: EventBus; logger: Logger }) {
  return async function reportApprovalAnswer(
    delivery: Pick<WebhookDelivery, 'id' | 'platformId' | 'approvalFor'>,
    attempt: DeliveryAttempt,
    responseBody?: string,
  ): Promise<void> {
    if (!delivery.approvalFor) return;
    const data = approvalAnswerOf(delivery.id, attempt, responseBody);
    try {
      await deps.bus.publish(APPROVAL_ANSWERS_TOPIC, [newEvent({
        type: APPROVAL_ANSWERED_EVENT,
        version: 1,
        platformId: delivery.platformId,
        aggregateId: delivery.approvalFor,
        data: { ...data },
      })]);
    } catch (err) {
      deps.logger.warn('the answer to an approval webhook could not be reported; the payment will time out', {
        webhookId: delivery.id,
        err,
      });
    }
  };
}

export type ReportApprovalAnswer = ReturnType<typeof createReportApprovalAnswer>;
