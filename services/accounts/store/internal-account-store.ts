import { withEvents, withInitialEvents } from '../../../lib/bus/outbox';
import { DuplicateKeyError, type Doc, type DocumentCollection } from '../../../lib/store/document-store';
import type { InternalAccountStore } from '../app/accounts-store';
import type { InternalAccount } from '../domain/internal-account';
import { findPage, fromDocument, ownerCondition, ownerKeyOf, present, toDocument } from './record-documents';

const read = (doc: Doc) => fromDocument<InternalAccount>(doc);

export function createInternalAccountStore(
  accounts: DocumentCollection,
): InternalAccountStore & { createIndexes(): Promise<void> } {
  return {
    async createIndexes() {
      // One account per owner, currency and type: makes opening accounts safe to repeat.
      await accounts.createIndex({
        keys: { platformId: 1, ownerKey: 1, currency: 1, type: 1 },
        unique: true,
        name: 'internal_account_owner_currency',
      });
      await accounts.createIndex({
        keys: { platformId: 1, ownerKey: 1, createdAt: 1, _id: 1 },
        name: 'internal_account_created',
      });
      // The documented filters of GET /customers/internal-accounts (no customerId: every customer's), in creation
      // order.
      await accounts.createIndex({
        keys: { platformId: 1, createdAt: 1, _id: 1 },
        name: 'internal_account_platform_created',
      });
      await accounts.createIndex({
        keys: { platformId: 1, currency: 1, createdAt: 1, _id: 1 },
        name: 'internal_account_currency_created',
      });
      await accounts.createIndex({
        keys: { platformId: 1, type: 1, createdAt: 1, _id: 1 },
        name: 'internal_account_type_created',
      });
      await accounts.createIndex({
        keys: { platformId: 1, ownerKey: 1, type: 1, createdAt: 1, _id: 1 },
        name: 'internal_account_owner_type_created',
      });
    },
    async insertIfAbsent(account, events) {
      try {
        await accounts.insertOne(
          withInitialEvents(toDocument(account, { ownerKey: ownerKeyOf(account.customerId) }), events),
        );
        return true;
      } catch (err) {
        if (err instanceof DuplicateKeyError) return false;
        throw err;
      }
    },
    async find(platformId, id) {
      const doc = await accounts.findOne({ _id: id, platformId });
      return doc ? read(doc) : null;
    },
    list(platformId, filter, page) {
      const query = present({
        platformId,
        ...ownerCondition(filter.owner),
        currency: filter.currency,
        type: filter.type,
        _id: filter.ids && { $in: filter.ids },
      });
      return findPage(accounts, query, page, read);
    },
    async markWalletProvisioned(platformId, id, now, events) {
      const result = await accounts.updateOne(
        { _id: id, platformId, walletProvisioned: false },
        withEvents({ $set: { walletProvisioned: true, status: 'ACTIVE', updatedAt: now } }, events),
      );
      return result.matchedCount === 1;
    },
  };
}
