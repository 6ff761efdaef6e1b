import type { DocumentCollection } from '../../../lib/store/document-store';
import type { DocumentRecordStore } from '../app/verification-store';
import type { StoredDocument } from '../domain/document';
import { findPage, fromDocument, present, toDocument } from './record-documents';

const read = (doc: Parameters<typeof fromDocument>[0]) => fromDocument<StoredDocument>(doc);

export function createDocumentRecordStore(
  documents: DocumentCollection,
): DocumentRecordStore & { createIndexes(): Promise<void> } {
  return {
    async createIndexes() {
      await documents.createIndex({ keys: { platformId: 1, documentHolder: 1 }, name: 'document_holder' });
      await documents.createIndex({ keys: { platformId: 1, createdAt: 1, _id: 1 }, name: 'document_created' });
      // GET /documents?documentHolder=, in creation order.
      await documents.createIndex({
        keys: { platformId: 1, documentHolder: 1, createdAt: 1, _id: 1 },
        name: 'document_holder_created',
      });
    },
    async insert(doc) {
      await documents.insertOne(toDocument(doc));
    },
    async find(platformId, id) {
      const doc = await documents.findOne({ _id: id, platformId });
      return doc ? read(doc) : null;
    },
    list(platformId, holder, page) {
      return findPage(documents, present({ platformId, documentHolder: holder }), page, read);
    },
    async ofHolders(platformId, holderIds) {
      return (await documents.find({ platformId, documentHolder: { $in: holderIds } })).map(read);
    },
    async replace(next) {
      const { _id, ...fields } = toDocument(next);
      const unset = Object.fromEntries(
        ['side', 'documentNumber', 'issuingAuthority'].filter((k) => fields[k] === undefined).map((k) => [k, '']),
      );
      const update = { $set: fields, ...(Object.keys(unset).length ? { $unset: unset } : {}) };
      const result = await documents.updateOne(
        { _id, platformId: next.platformId, revision: next.revision - 1 },
        update,
      );
      return result.matchedCount === 1;
    },
    async remove(platformId, id, revision) {
      return (await documents.deleteOne({ _id: id, platformId, revision })).deletedCount === 1;
    },
  };
}
