import type { DocumentStore } from '../../../lib/store/document-store';
import type { ApiTokenRecord, ApiTokenStore } from '../app/api-tokens';

type ApiTokenDoc = { _id: string; platformId: string; secretHash: string; createdAt: string };

export function createApiTokenStore(store: DocumentStore): ApiTokenStore {
  const tokens = store.collection<ApiTokenDoc>('api_tokens');
  return {
    async find(tokenId) {
      const doc = await tokens.findOne({ _id: tokenId });
      return doc ? { tokenId: doc._id, platformId: doc.platformId, secretHash: doc.secretHash, createdAt: doc.createdAt } : null;
    },
    async upsert(record: ApiTokenRecord) {
      const result = await tokens.updateOne(
        { _id: record.tokenId },
        { $set: { platformId: record.platformId, secretHash: record.secretHash }, $setOnInsert: { createdAt: record.createdAt } },
        { upsert: true },
      );
      return result.upsertedId !== undefined;
    },
  };
}
