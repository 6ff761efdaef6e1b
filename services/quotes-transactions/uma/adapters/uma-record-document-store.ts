import type { DocumentStore } from '../../../../lib/store/document-store';
import type { IncomingUmaRecord, OutgoingUmaRecord, UmaRecords } from '../app/uma-records';

type IncomingDoc = { _id: string } & Omit<IncomingUmaRecord, 'transactionId'>;
type OutgoingDoc = { _id: string } & Omit<OutgoingUmaRecord, 'transactionId'>;

export const UMA_INCOMING_COLLECTION = 'uma_incoming';
export const UMA_OUTGOING_COLLECTION = 'uma_outgoing';

export function createUmaRecordDocumentStore(store: DocumentStore): UmaRecords {
  const incoming = store.collection<IncomingDoc>(UMA_INCOMING_COLLECTION);
  const outgoing = store.collection<OutgoingDoc>(UMA_OUTGOING_COLLECTION);
  return {
    async saveOutgoing({ transactionId, ...rest }) {
      await outgoing.insertOne({ _id: transactionId, ...rest });
    },
    async outgoing(transactionId) {
      const doc = await outgoing.findOne({ _id: transactionId });
      if (!doc) return null;
      const { _id, ...rest } = doc;
      return { transactionId: _id, ...rest };
    },
    async markReported(transactionId, at) {
      await outgoing.updateOne({ _id: transactionId }, { $set: { reportedAt: at } });
    },
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
