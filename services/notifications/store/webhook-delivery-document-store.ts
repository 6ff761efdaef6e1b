import { DuplicateKeyError, type Doc, type DocumentStore, type Filter } from '../../../lib/store/document-store';
import type { DeliveryClaim, DeliveryPageQuery, WebhookDeliveryStore } from '../app/webhook-delivery-store';
import type { DeliveryAttempt, NextState, WebhookDelivery } from '../domain/webhook-delivery';

/** Store-only members, never part of the delivery record. */
const STORE_MEMBERS = new Set(['_id', 'claimId']);

function toDocument({ id, ...rest }: WebhookDelivery & { claimId?: string }): Doc {
  return { _id: id, ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)) };
}

function fromDocument(doc: Doc): WebhookDelivery {
  const out: Record<string, unknown> = { id: doc._id };
  for (const [k, v] of Object.entries(doc)) if (!STORE_MEMBERS.has(k)) out[k] = v;
  return out as unknown as WebhookDelivery;
}

/** Deliveries as documents of `webhook_deliveries`; every state change is a conditional update. */
export function createWebhookDeliveryDocumentStore(store: DocumentStore): WebhookDeliveryStore {
  const deliveries = store.collection('webhook_deliveries');
  return {
    async prepare() {
      await deliveries.createIndex({ keys: { status: 1, dueAt: 1 }, name: 'due' });
      await deliveries.createIndex({ keys: { platformId: 1, createdAt: -1, _id: -1 }, name: 'log' });
      // The log's documented filters (GET /webhooks/deliveries?status=&type=), newest first.
      await deliveries.createIndex({ keys: { platformId: 1, status: 1, createdAt: -1, _id: -1 }, name: 'log_status' });
      await deliveries.createIndex({ keys: { platformId: 1, type: 1, createdAt: -1, _id: -1 }, name: 'log_type' });
      await deliveries.createIndex({ keys: { createdAt: 1 }, name: 'age' });
      await deliveries.createIndex({ keys: { status: 1, createdAt: 1 }, name: 'unfinished_age' });
    },

    async insert(delivery) {
      try {
        await deliveries.insertOne(toDocument(delivery));
        return true;
      } catch (err) {
        if (err instanceof DuplicateKeyError) return false;
        throw err;
      }
    },

    async claimDue(now: number, claim: DeliveryClaim) {
      const doc = await deliveries.findOneAndUpdate(
        { status: { $in: ['PENDING', 'DELIVERING'] }, dueAt: { $lte: now } },
        { $set: { status: 'DELIVERING', claimId: claim.claimId, dueAt: claim.until }, $inc: { attemptCount: 1 } },
        { sort: { dueAt: 1 }, returnDocument: 'after' },
      );
      return doc ? fromDocument(doc) : null;
    },

    async finishAttempt(id: string, claimId: string, attempt: DeliveryAttempt, next: NextState) {
      const set: Record<string, unknown> = { status: next.status };
      if (next.dueAt !== undefined) set.dueAt = next.dueAt;
      if (next.deliveredAt !== undefined) set.deliveredAt = next.deliveredAt;
      const attemptDoc = Object.fromEntries(Object.entries(attempt).filter(([, v]) => v !== undefined));
      const result = await deliveries.updateOne(
        { _id: id, status: 'DELIVERING', claimId },
        { $set: set, $unset: { claimId: '' }, $push: { attempts: attemptDoc } },
      );
      return result.matchedCount === 1;
    },

    async postpone(id: string, claimId: string, dueAt: number) {
      const result = await deliveries.updateOne(
        { _id: id, status: 'DELIVERING', claimId },
        { $set: { status: 'PENDING', dueAt }, $unset: { claimId: '' }, $inc: { attemptCount: -1 } },
      );
      return result.matchedCount === 1;
    },

    async reopen(id, expected, dueAt, maxAttempts) {
      const result = await deliveries.updateOne(
        { _id: id, status: expected.status, attemptCount: expected.attemptCount },
        { $set: { status: 'PENDING', dueAt, maxAttempts }, $unset: { deliveredAt: '' } },
      );
      return result.matchedCount === 1;
    },

    async forgetFinished(createdBefore) {
      const { deletedCount } = await deliveries.deleteMany({
        createdAt: { $lt: createdBefore.toISOString() },
        status: { $in: ['DELIVERED', 'FAILED', 'SKIPPED'] },
      });
      return deletedCount;
    },

    async unfinished() {
      const unfinished = { status: { $in: ['PENDING', 'DELIVERING'] } };
      const [count, [oldest]] = await Promise.all([
        deliveries.countDocuments(unfinished),
        deliveries.find(unfinished, { sort: { createdAt: 1 }, limit: 1, projection: { createdAt: 1 } }),
      ]);
      return { count, ...(oldest ? { oldestCreatedAt: oldest.createdAt as string } : {}) };
    },

    async get(platformId, id) {
      const doc = await deliveries.findOne({ _id: id, platformId });
      return doc ? fromDocument(doc) : null;
    },

    async list(platformId, query: DeliveryPageQuery) {
      const filter: Filter = { platformId };
      if (query.status) filter.status = query.status;
      if (query.type) filter.type = query.type;
      const after = query.after
        ? {
          $or: [{ createdAt: { $lt: query.after.createdAt } }, {
            createdAt: query.after.createdAt,
            _id: { $lt: query.after.id },
          }],
        }
        : {};
      const [docs, totalCount] = await Promise.all([
        deliveries.find({ $and: [filter, after] }, { sort: { createdAt: -1, _id: -1 }, limit: query.limit + 1 }),
        deliveries.countDocuments(filter),
      ]);
      return { items: docs.slice(0, query.limit).map(fromDocument), hasMore: docs.length > query.limit, totalCount };
    },
  };
}
