import { DuplicateKeyError, type DocumentStore } from '../../../../lib/store/document-store';
import { ActiveKeyExists, type DelegatedKeyStore } from '../app/delegated-key-store';
import type { DelegatedKey } from '../domain/delegated-key';

type KeyDoc = Omit<DelegatedKey, 'id'> & { _id: string; activeSlot?: string };

export const DELEGATED_KEYS_COLLECTION = 'delegated_keys';

function toKey(doc: KeyDoc | null): DelegatedKey | null {
  if (!doc) return null;
  const { _id, activeSlot: _slot, ...rest } = doc;
  return { id: _id, ...rest };
}

/** One ACTIVE key per funding source: the slot is unique while set. */
const activeSlotOf = (key: Pick<DelegatedKey, 'platformId' | 'fundingSourceId'>) =>
  `${key.platformId}|${key.fundingSourceId}`;

export function createDelegatedKeyDocumentStore(store: DocumentStore): DelegatedKeyStore {
  const keys = store.collection<KeyDoc>(DELEGATED_KEYS_COLLECTION);
  return {
    async ensureIndexes() {
      await keys.createIndex({
        keys: { activeSlot: 1 },
        unique: true,
        partialFilter: { activeSlot: { $exists: true } },
        name: 'active_slot',
      });
      await keys.createIndex({ keys: { platformId: 1, createRequestId: 1 } });
      await keys.createIndex({ keys: { platformId: 1, 'policyChallenge.requestId': 1 } });
      await keys.createIndex({ keys: { platformId: 1, accountId: 1, createdAt: 1 } });
      await keys.createIndex({ keys: { platformId: 1, fundingSourceId: 1, createdAt: 1 } });
      await keys.createIndex({ keys: { platformId: 1, cardId: 1, status: 1 } });
      await keys.createIndex({ keys: { status: 1, createdAt: 1 }, partialFilter: { status: 'CREATING' } });
      await keys.createIndex({ keys: { status: 1, _id: 1 }, partialFilter: { status: 'ACTIVE' } });
    },
    async insert(key) {
      const { id, ...rest } = key;
      await keys.insertOne({ _id: id, ...rest });
    },
    async get(platformId, id) {
      return toKey(await keys.findOne({ _id: id, platformId }));
    },
    async byRequestId(platformId, requestId) {
      return toKey(await keys.findOne({ platformId, createRequestId: requestId }))
        ?? toKey(await keys.findOne({ platformId, 'policyChallenge.requestId': requestId }));
    },
    async markPending(id, policyChallenge, now) {
      return toKey(
        await keys.findOneAndUpdate(
          { _id: id, status: 'CREATING' },
          { $set: { status: 'PENDING', policyChallenge, updatedAt: now } },
          { returnDocument: 'after' },
        ),
      );
    },
    async activate(id, now) {
      const doc = await keys.findOne({ _id: id, status: 'PENDING' });
      if (!doc) return null;
      try {
        return toKey(
          await keys.findOneAndUpdate(
            { _id: id, status: 'PENDING' },
            { $set: { status: 'ACTIVE', activeSlot: activeSlotOf(doc), updatedAt: now } },
            { returnDocument: 'after' },
          ),
        );
      } catch (err) {
        if (err instanceof DuplicateKeyError) throw new ActiveKeyExists();
        throw err;
      }
    },
    async revoke(platformId, id, now) {
      return toKey(
        await keys.findOneAndUpdate(
          { _id: id, platformId, status: 'ACTIVE' },
          { $set: { status: 'REVOKED', updatedAt: now }, $unset: { activeSlot: '' } },
          { returnDocument: 'after' },
        ),
      );
    },
    async activeOfCard(platformId, cardId) {
      return (await keys.find({ platformId, cardId, status: 'ACTIVE' })).map((doc) => toKey(doc)!);
    },
    async activeAfter(after, limit) {
      const docs = await keys.find({ status: 'ACTIVE', ...(after ? { _id: { $gt: after } } : {}) }, {
        sort: { _id: 1 },
        limit,
      });
      return docs.map((doc) => toKey(doc)!);
    },
    async active(platformId, fundingSourceId) {
      return toKey(await keys.findOne({ activeSlot: activeSlotOf({ platformId, fundingSourceId }) }));
    },
    async countCreatingSince(platformId, since) {
      return keys.countDocuments({ platformId, status: 'CREATING', createdAt: { $gte: since } });
    },
    async discardCreating(id) {
      await keys.deleteOne({ _id: id, status: 'CREATING' });
    },
    async purgeCreating(before) {
      return (await keys.deleteMany({ status: 'CREATING', createdAt: { $lt: before } })).deletedCount;
    },
    async list(platformId, filter, limit) {
      const docs = await keys.find({
        platformId,
        ...(filter.accountId ? { accountId: filter.accountId } : {}),
        ...(filter.fundingSourceId ? { fundingSourceId: filter.fundingSourceId } : {}),
        status: { $in: ['PENDING', 'ACTIVE', 'REVOKED'] },
      }, { sort: { createdAt: -1, _id: -1 }, limit });
      return docs.map((doc) => toKey(doc)!);
    },
  };
}
