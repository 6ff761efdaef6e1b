import { AppError } from '../../../lib/errors';
import { DELIVERY_STATUSES, type DeliveryStatus, type WebhookDelivery } from '../domain/webhook-delivery';
import type { DeliveryPage, WebhookDeliveryStore } from './webhook-delivery-store';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface DeliveryLogQuery {
  /** 0 means the default. */
  limit: number;
  cursor?: string;
  status?: string;
  type?: string;
}

/** Opaque to clients: base64url of the last record's creation time and id. */
function encodeCursor(delivery: WebhookDelivery): string {
  return Buffer.from(JSON.stringify([delivery.createdAt, delivery.id]), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: string; id: string } {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'string')) return { createdAt: value[0], id: value[1] };
  } catch {
    // falls through to the error below
  }
  throw AppError.invalidInput('Invalid cursor', [{ field: 'cursor', message: 'is not a cursor returned by this API' }]);
}

function validated(query: DeliveryLogQuery) {
  const { limit, status } = query;
  if (!Number.isInteger(limit) || limit < 0 || limit > MAX_PAGE_SIZE) {
    throw AppError.invalidInput('Invalid limit', [{ field: 'limit', message: `must be an integer between 1 and ${MAX_PAGE_SIZE}` }]);
  }
  if (status && !DELIVERY_STATUSES.includes(status as DeliveryStatus)) {
    throw AppError.invalidInput('Invalid status', [{ field: 'status', constraint: { enum: [...DELIVERY_STATUSES] } }]);
  }
  return {
    limit: limit || DEFAULT_PAGE_SIZE,
    ...(query.cursor ? { after: decodeCursor(query.cursor) } : {}),
    ...(status ? { status: status as DeliveryStatus } : {}),
    ...(query.type ? { type: query.type } : {}),
  };
}

/** The read-only delivery log of one platform: newest first, each delivery with its attempts. */
export function createWebhookDeliveryLog(deps: { deliveries: WebhookDeliveryStore }) {
  return {
    async list(platformId: string, query: DeliveryLogQuery): Promise<DeliveryPage & { nextCursor?: string }> {
      const page = await deps.deliveries.list(platformId, validated(query));
      const last = page.items[page.items.length - 1];
      return { ...page, ...(page.hasMore && last ? { nextCursor: encodeCursor(last) } : {}) };
    },
    async get(platformId: string, id: string): Promise<WebhookDelivery> {
      const delivery = await deps.deliveries.get(platformId, id);
      if (!delivery) throw AppError.notFound('Webhook delivery');
      return delivery;
    },
  };
}

export type WebhookDeliveryLog = ReturnType<typeof createWebhookDeliveryLog>;
