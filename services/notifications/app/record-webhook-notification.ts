import type { DomainEvent } from '../../../lib/bus/event-bus';
import { activeTraceparent } from '../../../lib/bus/event-trace-context';
import type { Logger } from '../../../lib/log';
import { asApprovalRequest } from '../domain/approval-request';
import { newDelivery, skippedDelivery } from '../domain/webhook-delivery';
import { webhookNotificationOf } from '../domain/webhook-envelope';
import type { WebhookDelivery } from '../domain/webhook-delivery';
import type { WebhookDeliveryStore } from './webhook-delivery-store';
import type { WebhookPayloads } from './webhook-payloads';
import type { WebhookEndpointDirectory } from './webhook-endpoint-directory';

/**
 * The consumer's handler: the event becomes a stored delivery (attempted later by the worker).
 * The delivery id derives from the event id, so a redelivered event finds its delivery and adds none.
 * A platform with no endpoint gets its delivery logged as SKIPPED straight away, as the worker
 * would have; when the endpoint cannot be read, the worker reads it again at the attempt.
 */
export function createRecordWebhookNotification(deps: {
  deliveries: WebhookDeliveryStore;
  maxAttempts: number;
  logger: Logger;
  directory?: WebhookEndpointDirectory;
  /** Which events the platform is sent and with what data; every event as it is without it. */
  payloadOf?: WebhookPayloads;
  /** Called after a new delivery is stored for the worker. */
  recorded?: () => void;
  /** Called with the delivery of an approval webhook skipped for want of an endpoint: payments is told. */
  skippedApproval?: (delivery: WebhookDelivery) => Promise<void>;
  clock?: () => Date;
}) {
  const clock = deps.clock ?? (() => new Date());
  // Whether each platform had an endpoint at its last read, and when that read began. An event that
  // occurred before the read began is answered from it: the read is more recent than the event, as
  // a read made now would be (the worker reads the endpoint itself again at each attempt). Events
  // come in bursts (a payment makes about six), so a burst costs one read instead of one each.
  const lastRead = new Map<string, { startedAt: number; none: boolean }>();
  const hasNoEndpoint = async (platformId: string, occurredAt: string) => {
    if (!deps.directory) return false;
    const known = lastRead.get(platformId);
    if (known && Date.parse(occurredAt) < known.startedAt) return known.none;
    const startedAt = clock().getTime();
    try {
      const none = (await deps.directory.endpointOf(platformId)) === undefined;
      if ((lastRead.get(platformId)?.startedAt ?? -Infinity) < startedAt) lastRead.set(platformId, { startedAt, none });
      return none;
    } catch {
      return false;
    }
  };
  return async function recordWebhookNotification(event: DomainEvent): Promise<void> {
    const found = webhookNotificationOf(event);
    if (!found) {
      deps.logger.debug('event without a platform: no webhook', { eventId: event.id, eventType: event.type });
      return;
    }
    const requested = asApprovalRequest({ ...found, traceparent: activeTraceparent() ?? event.traceparent }, event.aggregateId);
    const notification = deps.payloadOf ? await deps.payloadOf(requested) : requested;
    if (!notification) {
      deps.logger.debug('not sent to this platform: no webhook', { eventId: event.id, eventType: event.type });
      return;
    }
    // An approval webhook is attempted once: its answer (or its failure) decides the payment.
    const maxAttempts = notification.approvalFor ? 1 : deps.maxAttempts;
    if (await hasNoEndpoint(notification.platformId, event.occurredAt)) {
      const skipped = skippedDelivery(notification, clock(), maxAttempts);
      if ((await deps.deliveries.insert(skipped)) && notification.approvalFor) await deps.skippedApproval?.(skipped);
      return;
    }
    const created = await deps.deliveries.insert(newDelivery(notification, clock(), maxAttempts));
    if (created) deps.recorded?.();
  };
}
