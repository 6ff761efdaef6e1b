import type { Doc, DocumentCollection } from '../../../lib/store/document-store';
import type { Platform, PlatformStore } from '../app/accounts-store';
import { fromDocument, toDocument } from './record-documents';

export function createPlatformStore(platforms: DocumentCollection): PlatformStore {
  return {
    async ensure(platform) {
      const { _id, ...fields } = toDocument(platform);
      const result = await platforms.updateOne({ _id }, { $setOnInsert: fields }, { upsert: true });
      const stored = await platforms.findOne({ _id });
      return { platform: fromDocument<Platform>(stored as Doc), created: result.upsertedId !== undefined };
    },
    async find(id) {
      const doc = await platforms.findOne({ _id: id });
      return doc ? fromDocument<Platform>(doc) : null;
    },
  };
}
