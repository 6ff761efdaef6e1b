import type { DomainEvent } from '../../../lib/bus/event-bus';
import { activeTraceparent } from '../../../lib/bus/event-trace-context';
import type { Logger } from '../../../lib/log';
import { instruments } from '../../../lib/metrics';
import { APPROVAL_WEBHOOK_TYPE, asApprovalRequest, webhookTypeOf } from '../domain/approval-request';
import { claimedDelivery, newDelivery } from '../domain/webhook-delivery';
import { webhookNotificationOf, type WebhookNotification } from '../domain/webhook-envelope';
import type { WebhookDeliveryStore } from './webhook-delivery-store';
import type { WebhookPayloads } from './webhook-payloads';
import type { WebhookEndpointDirectory } from './webhook-endpoint-directory';
import type { HandOff } from './webhook-delivery-worker';

/**
 * The consumer's handler: the event becomes a stored delivery, attempted by the worker: at once and
 * without a separate claim when one of its lanes is idle (handOff), else when a lane claims it.
 * The delivery id derives from the event id, so a redelivered event finds its delivery and adds none.
 * An event of a webhook type that occurs while its platform has no endpoint is not recorded, and
 * neither its payload nor the platform's subscriptions are read: it is only counted (metric
 * webhook.events.unrecorded; an extension type counts whether or not the platform opted into it).
 * When the endpoint cannot be read, the delivery is recorded and the worker reads it again at the attempt.
 */
export function createRecordWebhookNotification(deps: {
  deliveries: WebhookDeliveryStore;
  maxAttempts: number;
  logger: Logger;
  directory?: WebhookEndpointDirectory;
  /** Which events the platform is sent and with what data; every event as it is without it. */
  payloads?: WebhookPayloads;
  /** Called after a new delivery is stored for the worker. */
  recorded?: () => void;
  /** A claim of an idle worker lane in this process, if any: the delivery is stored claimed and attempted at once. */
  handOff?: () => HandOff | undefined;
  /**
   * Called with an approval webhook not recorded for want of an endpoint: payments is told there is
   * no one to ask. A redelivered event tells it again; payments ignores an answer it no longer waits for.
   */
  skippedApproval?: (notification: WebhookNotification) => Promise<void>;
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
    if (!event.platformId || !event.type) {
      deps.logger.debug('event without a platform: no webhook', { eventId: event.id, eventType: event.type });
      return;
    }
    const type = webhookTypeOf(event.type);
    if (deps.payloads && !deps.payloads.isWebhookType(type)) {
      deps.logger.debug('not a webhook type: no webhook', { eventId: event.id, eventType: event.type });
      return;
    }
    // The endpoint first: for a platform without one, neither the notification (its id, its data)
    // nor the platform's subscriptions nor the payload are made or read.
    const requested = () =>
      asApprovalRequest(
        { ...webhookNotificationOf(event)!, traceparent: activeTraceparent() ?? event.traceparent },
        event.aggregateId,
      );
    if (await hasNoEndpoint(event.platformId, event.occurredAt)) {
      instruments().webhookEventsUnrecorded.add(1, { type });
      if (type === APPROVAL_WEBHOOK_TYPE) await deps.skippedApproval?.(requested());
      return;
    }
    const found = requested();
    if (deps.payloads && !(await deps.payloads.isSent(found))) {
      deps.logger.debug('not sent to this platform: no webhook', { eventId: event.id, eventType: event.type });
      return;
    }
    const notification = deps.payloads ? await deps.payloads.build(found) : found;
    if (!notification) {
      deps.logger.debug('the resource of this webhook is gone: no webhook', {
        eventId: event.id,
        eventType: event.type,
      });
      return;
    }
    // An approval webhook is attempted once: its answer (or its failure) decides the payment.
    const maxAttempts = notification.approvalFor ? 1 : deps.maxAttempts;
    const lane = deps.handOff?.();
    if (lane) {
      const delivery = claimedDelivery(notification, clock(), maxAttempts, lane.until);
      let created = false;
      try {
        created = await deps.deliveries.insert({ ...delivery, claimId: lane.claimId });
      } finally {
        if (created) lane.give(delivery);
        else lane.release();
      }
      return;
    }
    const created = await deps.deliveries.insert(newDelivery(notification, clock(), maxAttempts));
    if (created) deps.recorded?.();
  };
}
