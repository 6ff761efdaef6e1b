import type { DeliveryAttempt } from './webhook-delivery';
import type { WebhookNotification } from './webhook-envelope';

/**
 * Payments asks a platform to approve an incoming UMA payment with this event; the platform sees
 * the reference's INCOMING_PAYMENT.PENDING webhook, attempted once (its answer decides, a failure
 * is not retried), and the answer goes back to payments as APPROVAL_ANSWERED.
 */
export const APPROVAL_REQUESTED_EVENT = 'INCOMING_PAYMENT.APPROVAL_REQUESTED';
export const APPROVAL_ANSWERED_EVENT = 'INCOMING_PAYMENT.APPROVAL_ANSWERED';
export const APPROVAL_WEBHOOK_TYPE = 'INCOMING_PAYMENT.PENDING';

/** The webhook type an event becomes: an approval request is the reference's INCOMING_PAYMENT.PENDING. */
export function webhookTypeOf(eventType: string): string {
  return eventType === APPROVAL_REQUESTED_EVENT ? APPROVAL_WEBHOOK_TYPE : eventType;
}

/** The webhook an approval request becomes; other notifications unchanged. */
export function asApprovalRequest(notification: WebhookNotification, aggregateId: string): WebhookNotification {
  if (notification.type !== APPROVAL_REQUESTED_EVENT) return notification;
  return { ...notification, type: APPROVAL_WEBHOOK_TYPE, approvalFor: aggregateId };
}

/** The most of an answer's body passed on to payments. */
export const APPROVAL_ANSWER_BODY_LIMIT = 4096;

/** What payments is told: the status the endpoint answered (with a 200's or a 422's body), or why there was none. */
export interface ApprovalAnswerData {
  webhookId: string;
  statusCode?: number;
  error?: string;
  body?: string;
  noEndpoint?: boolean;
}

export function approvalAnswerOf(
  webhookId: string,
  attempt: DeliveryAttempt,
  responseBody?: string,
): ApprovalAnswerData {
  if (attempt.outcome === 'NO_ENDPOINT') return { webhookId, noEndpoint: true };
  if (attempt.statusCode === undefined) return { webhookId, error: attempt.error ?? 'no answer' };
  // Only a 200's (receiverCustomerInfo) and a 422's (requiredFields) bodies matter, at most a few KB
  // (the sender reads no more); the rest of what answered is not passed on.
  const kept = (attempt.statusCode === 200 || attempt.statusCode === 422) && responseBody;
  return {
    webhookId,
    statusCode: attempt.statusCode,
    ...(kept ? { body: responseBody.slice(0, APPROVAL_ANSWER_BODY_LIMIT) } : {}),
  };
}
