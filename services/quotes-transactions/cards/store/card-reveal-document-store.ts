import type { DocumentStore } from '../../../../lib/store/document-store';
import type { CardReveal, CardRevealStore } from '../app/card-reveals';

type CardRevealDoc = Omit<CardReveal, 'id'> & { _id: string; opened: boolean };

export const CARD_REVEALS_COLLECTION = 'card_reveals';

/** Reveal records (the audit trail of who revealed which card, and when its URL was opened). */
export function createCardRevealDocumentStore(store: DocumentStore): CardRevealStore {
  const reveals = store.collection<CardRevealDoc>(CARD_REVEALS_COLLECTION);
  return {
    async ensureIndexes() {
      await reveals.createIndex({ keys: { platformId: 1, cardId: 1, createdAt: 1 } });
    },
    async insert(reveal) {
      const { id, ...rest } = reveal;
      await reveals.insertOne({ _id: id, ...rest, opened: false });
    },
    async claim(id, now) {
      // One conditional write: of two concurrent opens, exactly one flips `opened`.
      const claimed = await reveals.updateOne({ _id: id, opened: false, expiresAt: { $gt: now } }, {
        $set: { opened: true, openedAt: now },
      });
      if (claimed.modifiedCount !== 1) return null;
      const doc = await reveals.findOne({ _id: id });
      if (!doc) return null;
      const { _id, opened: _opened, ...rest } = doc;
      return { id: _id, ...rest };
    },
  };
}
