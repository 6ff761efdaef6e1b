import type { DocumentStore } from '../../../../lib/store/document-store';
import type { LookupStore } from '../app/lookup-store';
import type { Lookup } from '../domain/lookup';

type LookupDoc = { _id: string } & Omit<Lookup, 'id'>;

export const LOOKUPS_COLLECTION = 'lookups';

export function createLookupDocumentStore(store: DocumentStore): LookupStore {
  const lookups = store.collection<LookupDoc>(LOOKUPS_COLLECTION);
  return {
    async save(lookup) {
      const { id, ...rest } = lookup;
      await lookups.insertOne({ _id: id, ...rest });
    },
    async ensureIndexes() {
      await lookups.createIndex({ keys: { expiresAt: 1 }, name: 'expiry' });
    },
    async forgetExpired(before) {
      return (await lookups.deleteMany({ expiresAt: { $lt: before.toISOString() } })).deletedCount;
    },
    async find(platformId, lookupId) {
      const doc = await lookups.findOne({ _id: lookupId, platformId });
      if (!doc) return null;
      const { _id, ...rest } = doc;
      return { id: _id, ...rest };
    },
  };
}
