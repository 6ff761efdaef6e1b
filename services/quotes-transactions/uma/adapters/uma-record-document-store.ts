import type { DocumentStore } from '../../../../lib/store/document-store';
import type { IncomingUmaRecord, UmaRecords } from '../app/uma-records';

type IncomingDoc = { _id: string } & Omit<IncomingUmaRecord, 'transactionId'>;

export const UMA_INCOMING_COLLECTION = 'uma_incoming';

export function createUmaRecordDocumentStore(store: DocumentStore): UmaRecords {
  const incoming = store.collection<IncomingDoc>(UMA_INCOMING_COLLECTION);
  return {
    async saveIncoming({ transactionId, ...rest }) {
      await incoming.insertOne({ _id: transactionId, ...rest });
    },
    async incoming(transactionId) {
      const doc = await incoming.findOne({ _id: transactionId });
      if (!doc) return null;
      const { _id, ...rest } = doc;
      return { transactionId: _id, ...rest };
    },
    async ensureIndexes() {
      await incoming.createIndex({ keys: { paymentHash: 1 }, name: 'payment_hash', unique: true });
    },
  };
}
