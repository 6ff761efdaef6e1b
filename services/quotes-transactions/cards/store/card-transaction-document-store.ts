import { withEvents, withInitialEvents } from '../../../../lib/bus/outbox';
import type { DocumentStore } from '../../../../lib/store/document-store';
import type { CardTransactionEntry, CardTransactionStore } from '../app/card-transaction-store';
import type { CardTransaction } from '../domain/card-transaction';

type EntryDoc = Omit<CardTransactionEntry, 'id'> & { _id: string };

export const CARD_TRANSACTIONS_COLLECTION = 'card_transactions';

function toEntry(doc: EntryDoc): CardTransactionEntry {
  const { _id, ...rest } = doc;
  delete (rest as Record<string, unknown>)._outbox;
  return { id: _id, ...rest };
}

/** The transaction's own members (what an event changes), without its id and the entry's bookkeeping. */
function members(tx: CardTransaction): Record<string, unknown> {
  const { id: _id, pending: _p, decision: _d, declineReason: _r, releasing: _l, sources: _s, ...rest } =
    tx as CardTransactionEntry;
  return rest;
}

export function createCardTransactionDocumentStore(store: DocumentStore) {
  const entries = store.collection<EntryDoc>(CARD_TRANSACTIONS_COLLECTION);
  const port: CardTransactionStore = {
    async ensureIndexes() {
      await entries.createIndex({ keys: { platformId: 1, cardId: 1, createdAt: 1 } });
      await entries.createIndex({ keys: { decision: 1, updatedAt: 1 } });
      await entries.createIndex({ keys: { status: 1, authorizedAt: 1 } });
      await entries.createIndex({ keys: { pullConfirmAt: 1 } });
      await entries.createIndex({ keys: { platformId: 1, customerId: 1, createdAt: 1 } });
      // The approved entries GET /transactions lists, in creation order (a range of dates is a range of entries).
      await entries.createIndex({
        keys: { platformId: 1, decision: 1, createdAt: 1, _id: 1 },
        name: 'card_transaction_created',
      });
      await entries.createIndex({ keys: { platformCustomerId: 1 }, name: 'card_transaction_platform_customer' });
    },
    async insert(entry) {
      const { id, ...rest } = entry;
      await entries.insertOne(withInitialEvents({ _id: id, ...rest }, []));
    },
    async get(platformId, id) {
      const doc = await entries.findOne({ _id: id, platformId });
      return doc && toEntry(doc);
    },
    async decide(platformId, id, set, events) {
      return (await entries.updateOne({ _id: id, platformId, decision: 'DECIDING' }, withEvents({ $set: set }, events)))
        .modifiedCount === 1;
    },
    async begin(tx, plan) {
      const result = await entries.updateOne(
        { _id: tx.id, platformId: tx.platformId, decision: 'APPROVED', events: tx.events, pending: { $exists: false } },
        { $set: { pending: plan } },
      );
      return result.modifiedCount === 1;
    },
    async finish(tx, result, events) {
      const done = await entries.updateOne(
        { _id: tx.id, platformId: tx.platformId, events: tx.events, pending: { $exists: true } },
        withEvents({
          $set: members(result),
          $unset: { pending: '', ...(result.pullConfirmAt ? {} : { pullConfirmAt: '' }) },
        }, events),
      );
      return done.modifiedCount === 1;
    },
    async released(platformId, id) {
      await entries.updateOne({ _id: id, platformId }, { $unset: { releasing: '' } });
    },
    async interrupted(before, limit) {
      const docs = await entries.find({
        updatedAt: { $lt: before },
        $or: [{ decision: 'DECIDING' }, { releasing: true }, { pending: { $exists: true } }],
      }, { limit });
      return docs.map(toEntry);
    },
    async stale(before, limit) {
      const docs = await entries.find(
        { status: { $in: ['AUTHORIZED', 'PARTIALLY_SETTLED'] }, authorizedAt: { $lt: before }, decision: 'APPROVED' },
        { sort: { authorizedAt: 1 }, limit },
      );
      return docs.map(toEntry);
    },
    async list(platformId, q) {
      const filter: Record<string, unknown> = { platformId, decision: 'APPROVED' };
      if (q.customerId) filter.customerId = q.customerId;
      if (q.platformCustomerId) filter.platformCustomerId = q.platformCustomerId;
      if (q.accountIds) filter.accountId = { $in: q.accountIds };
      if (q.statuses) filter.status = { $in: q.statuses };
      if (q.startDate || q.endDate) {
        filter.createdAt = { ...(q.startDate ? { $gte: q.startDate } : {}), ...(q.endDate ? { $lte: q.endDate } : {}) };
      }
      const direction = q.sortOrder === 'asc' ? 1 : -1;
      const beyond = direction === 1 ? '$gt' : '$lt';
      const page = q.after
        ? {
          $and: [filter, {
            $or: [{ createdAt: { [beyond]: q.after.createdAt } }, {
              createdAt: q.after.createdAt,
              _id: { [beyond]: q.after.id },
            }],
          }],
        }
        : filter;
      const [docs, totalCount] = await Promise.all([
        entries.find(page, { sort: { createdAt: direction, _id: direction }, limit: q.limit + 1 }),
        entries.countDocuments(filter),
      ]);
      return { entries: docs.map(toEntry), totalCount };
    },
    async pullsDue(now, limit) {
      const docs = await entries.find({ pullConfirmAt: { $lte: now }, decision: 'APPROVED' }, {
        sort: { pullConfirmAt: 1 },
        limit,
      });
      return docs.map(toEntry);
    },
  };
  return { port, collection: entries };
}
