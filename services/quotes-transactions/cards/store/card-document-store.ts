import { withEvents, withInitialEvents } from '../../../../lib/bus/outbox';
import { afterPosition } from '../../../../lib/page-cursor';
import { DuplicateKeyError, type DocumentStore, type Filter } from '../../../../lib/store/document-store';
import { CardExists, type CardStore } from '../app/card-ports';
import type { Card } from '../domain/card';

type CardDoc = Omit<Card, 'id'> & { _id: string };

export const CARDS_COLLECTION = 'cards';

function toCard(doc: CardDoc): Card {
  const { _id, ...rest } = doc;
  delete (rest as Record<string, unknown>)._outbox;
  return { id: _id, ...rest };
}

export function createCardDocumentStore(store: DocumentStore) {
  const cards = store.collection<CardDoc>(CARDS_COLLECTION);

  const port: CardStore = {
    async ensureIndexes() {
      await cards.createIndex({ keys: { platformId: 1, platformCardId: 1 }, unique: true });
      await cards.createIndex({ keys: { platformId: 1, createdAt: 1 } });
      await cards.createIndex({ keys: { platformId: 1, cardholderId: 1, createdAt: 1 } });
      // The documented filters of GET /cards: a state's cards in creation order; a funding account's few cards.
      await cards.createIndex({ keys: { platformId: 1, state: 1, createdAt: 1, _id: 1 }, name: 'card_state_created' });
      await cards.createIndex({ keys: { fundingSources: 1 }, name: 'card_funding_source' });
      await cards.createIndex({ keys: { state: 1, createdAt: 1 }, partialFilter: { state: 'PROCESSING' } });
    },
    async insert(card, events) {
      const { id, ...rest } = card;
      try {
        await cards.insertOne(withInitialEvents({ _id: id, ...rest }, events));
      } catch (err) {
        if (err instanceof DuplicateKeyError) throw new CardExists();
        throw err;
      }
    },
    async get(platformId, id) {
      const doc = await cards.findOne({ _id: id, platformId });
      return doc && toCard(doc);
    },
    async update(expected, change, events) {
      const { id: _id, platformId: _p, createdAt: _c, ...set } = change as Partial<Card>;
      const doc = await cards.findOneAndUpdate(
        { _id: expected.id, platformId: expected.platformId, updatedAt: expected.updatedAt, state: expected.state },
        withEvents({ $set: set }, events),
        { returnDocument: 'after' },
      );
      return doc && toCard(doc);
    },
    async countOpen(platformId, cardholderId) {
      return cards.countDocuments({ platformId, cardholderId, state: { $ne: 'CLOSED' } });
    },
    async discard(platformId, id) {
      await cards.deleteOne({ _id: id, platformId, state: 'PROCESSING' });
    },
    async list(platformId, q) {
      const filter: Filter = {
        platformId,
        ...(q.cardholderId ? { cardholderId: q.cardholderId } : {}),
        ...(q.accountId ? { fundingSources: q.accountId } : {}),
        ...(q.platformCardId ? { platformCardId: q.platformCardId } : {}),
        ...(q.state ? { state: q.state } : {}),
      };
      const direction = q.sortOrder === 'asc' ? 1 : -1;
      const [docs, totalCount] = await Promise.all([
        cards.find({ ...filter, ...afterPosition(q.after, q.sortOrder) }, {
          sort: { createdAt: direction, _id: direction },
          limit: q.limit + 1,
        }),
        cards.countDocuments(filter),
      ]);
      return { cards: docs.slice(0, q.limit).map(toCard), hasMore: docs.length > q.limit, totalCount };
    },
    async processingSince(before, limit) {
      return (await cards.find({ state: 'PROCESSING', createdAt: { $lt: before } }, { limit })).map(toCard);
    },
  };
  return { port, collection: cards };
}
