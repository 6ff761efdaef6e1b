import { AppError } from '../../../lib/errors';
import type { WebhookDelivery } from '../domain/webhook-delivery';
import type { WebhookDeliveryStore } from './webhook-delivery-store';

const ENDED = new Set(['DELIVERED', 'FAILED', 'SKIPPED']);

/**
 * Resend: an ended delivery becomes due now for one more attempt (the same id, so a receiver that
 * processed it already de-duplicates it), sent by the delivery worker like any other. One resend
 * at a time: the change is conditional on the status and attempt count just read.
 */
export function createResendWebhook(deps: { deliveries: WebhookDeliveryStore; now?: () => Date; resent?: () => void }) {
  const now = deps.now ?? (() => new Date());
  return async (platformId: string, id: string): Promise<WebhookDelivery> => {
    const delivery = await deps.deliveries.get(platformId, id);
    if (!delivery) throw AppError.notFound('Webhook delivery');
    if (delivery.approvalFor) {
      throw new AppError('CONFLICT', "An incoming payment's approval request is answered once; it is not resent");
    }
    if (!ENDED.has(delivery.status)) {
      throw new AppError('CONFLICT', `The delivery is ${delivery.status}: only an ended delivery is resent`, {
        status: delivery.status,
      });
    }
    const dueAt = now().getTime();
    const maxAttempts = Math.max(delivery.maxAttempts, delivery.attemptCount + 1);
    if (!(await deps.deliveries.reopen(id, delivery, dueAt, maxAttempts))) {
      throw new AppError('CONFLICT', 'The delivery changed meanwhile; read it again');
    }
    deps.resent?.();
    return { ...delivery, status: 'PENDING', dueAt, maxAttempts, deliveredAt: undefined };
  };
}
