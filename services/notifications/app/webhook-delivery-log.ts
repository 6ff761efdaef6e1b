import { AppError } from '../../../lib/errors';
import { decodePageCursor, nextPageCursor, pageLimit } from '../../../lib/page-cursor';
import { DELIVERY_STATUSES, type DeliveryStatus, type WebhookDelivery } from '../domain/webhook-delivery';
import type { DeliveryPage, WebhookDeliveryStore } from './webhook-delivery-store';

export interface DeliveryLogQuery {
  /** 0 means the default. */
  limit: number;
  cursor?: string;
  status?: string;
  type?: string;
}

function validated(query: DeliveryLogQuery) {
  const { status } = query;
  const limit = pageLimit(query.limit);
  if (status && !DELIVERY_STATUSES.includes(status as DeliveryStatus)) {
    throw AppError.invalidInput('Invalid status', [{ field: 'status', constraint: { enum: [...DELIVERY_STATUSES] } }]);
  }
  return {
    limit,
    ...(query.cursor ? { after: decodePageCursor(query.cursor) } : {}),
    ...(status ? { status: status as DeliveryStatus } : {}),
    ...(query.type ? { type: query.type } : {}),
  };
}

/** The read-only delivery log of one platform: newest first, each delivery with its attempts. */
export function createWebhookDeliveryLog(deps: { deliveries: WebhookDeliveryStore }) {
  return {
    async list(platformId: string, query: DeliveryLogQuery): Promise<DeliveryPage & { nextCursor?: string }> {
      const page = await deps.deliveries.list(platformId, validated(query));
      const nextCursor = nextPageCursor(page.items, page.hasMore);
      return { ...page, ...(nextCursor ? { nextCursor } : {}) };
    },
    async get(platformId: string, id: string): Promise<WebhookDelivery> {
      const delivery = await deps.deliveries.get(platformId, id);
      if (!delivery) throw AppError.notFound('Webhook delivery');
      return delivery;
    },
  };
}

export type WebhookDeliveryLog = ReturnType<typeof createWebhookDeliveryLog>;
