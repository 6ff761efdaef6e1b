import type { DomainEvent } from '../../../lib/bus/event-bus';
import type { Logger } from '../../../lib/log';
import { newDelivery } from '../domain/webhook-delivery';
import { webhookNotificationOf } from '../domain/webhook-envelope';
import type { WebhookDeliveryStore } from './webhook-delivery-store';

/**
 * The consumer's handler: the event becomes a stored delivery (attempted later by the worker).
 * The delivery id derives from the event id, so a redelivered event finds its delivery and adds none.
 */
export function createRecordWebhookNotification(deps: {
  deliveries: WebhookDeliveryStore;
  maxAttempts: number;
  logger: Logger;
  /** Called after a new delivery is stored. */
  recorded?: () => void;
  clock?: () => Date;
}) {
  const clock = deps.clock ?? (() => new Date());
  return async function recordWebhookNotification(event: DomainEvent): Promise<void> {
    const notification = webhookNotificationOf(event);
    if (!notification) {
      deps.logger.debug('event without a platform: no webhook', { eventId: event.id, eventType: event.type });
      return;
    }
    const created = await deps.deliveries.insert(newDelivery(notification, clock(), deps.maxAttempts));
    if (created) deps.recorded?.();
  };
}
