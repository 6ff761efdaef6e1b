import { createHash } from 'node:crypto';
import type { DomainEvent } from '../../../lib/bus/event-bus';

/** What a platform is told: one domain event, addressed to the platform it belongs to. */
export interface WebhookNotification {
  /** `Webhook:<uuid>`, the same on every attempt: receivers de-duplicate by it. */
  id: string;
  platformId: string;
  /** The reference's kind (`OUTGOING_PAYMENT.COMPLETED`, ...) or the event's own type for the rest. */
  type: string;
  /** The `data` member, serialised once so every attempt carries the same data. */
  dataJson: string;
  eventId?: string;
  /** W3C trace context the event was consumed in: every delivery attempt's span joins that trace. */
  traceparent?: string;
  /** The incoming payment whose approval this webhook asks for (domain/approval-request.ts). */
  approvalFor?: string;
}

export const TEST_WEBHOOK_TYPE = 'TEST';

/** A uuid (version 8, RFC 9562) derived from the event id, so a redelivered event maps to the same webhook. */
export function webhookIdOf(eventId: string): string {
  const hex = createHash('sha256').update(eventId).digest('hex').slice(0, 32).split('');
  hex[12] = '8';
  hex[16] = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `Webhook:${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Every platform-scoped event becomes a notification; events without a platform have no one to tell. */
export function webhookNotificationOf(event: DomainEvent): WebhookNotification | undefined {
  if (!event.platformId || !event.type) return undefined;
  return {
    id: webhookIdOf(event.id),
    platformId: event.platformId,
    type: event.type,
    dataJson: JSON.stringify(event.data ?? {}),
    eventId: event.id,
  };
}

/**
 * The exact bytes POSTed: the reference's envelope. `timestamp` is when this attempt is sent, so
 * the signed bytes differ on every attempt and a receiver can refuse stale (replayed) bodies.
 */
export function webhookBody(notification: Pick<WebhookNotification, 'id' | 'type' | 'dataJson'>, sentAt: Date): string {
  const head = JSON.stringify({ id: notification.id, type: notification.type, timestamp: sentAt.toISOString() });
  return `${head.slice(0, -1)},"data":${notification.dataJson}}`;
}
