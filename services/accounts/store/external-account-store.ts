import { withEvents, withInitialEvents } from '../../../lib/bus/outbox';
import { DuplicateKeyError, type Doc, type DocumentCollection } from '../../../lib/store/document-store';
import { DuplicateRecordError, type ExternalAccountStore } from '../app/accounts-store';
import type { ExternalAccount } from '../domain/external-account';
import { findPage, fromDocument, ownerCondition, ownerKeyOf, present, toDocument } from './record-documents';

const read = (doc: Doc) => fromDocument<ExternalAccount>(doc);

/** Deleted accounts stay as tombstones (isDeleted) so that their DELETED event leaves through the outbox. */
export function createExternalAccountStore(accounts: DocumentCollection): ExternalAccountStore & { createIndexes(): Promise<void> } {
  const live = (platformId: string, id: string) => ({ _id: id, platformId, isDeleted: false });
  return {
    async createIndexes() {
      await accounts.createIndex({
        keys: { platformId: 1, ownerKey: 1, fingerprint: 1 }, unique: true, partialFilter: { isDeleted: false }, name: 'external_account_destination',
      });
      await accounts.createIndex({ keys: { platformId: 1, ownerKey: 1, createdAt: 1, _id: 1 }, name: 'external_account_created' });
    },
    async insert(account, events) {
      try {
        await accounts.insertOne(withInitialEvents(toDocument(account, { ownerKey: ownerKeyOf(account.customerId), isDeleted: false }), events));
      } catch (err) {
        if (err instanceof DuplicateKeyError) throw new DuplicateRecordError('externalAccount');
        throw err;
      }
    },
    async find(platformId, id) {
      const doc = await accounts.findOne(live(platformId, id));
      return doc ? read(doc) : null;
    },
    list(platformId, filter, page) {
      const query = present({ platformId, ...ownerCondition(filter.owner), currency: filter.currency, isDeleted: false });
      return findPage(accounts, query, page, read);
    },
    async clearDefaultUmaDeposit(platformId, customerId, exceptId) {
      await accounts.updateMany(
        { platformId, customerId, isDeleted: false, defaultUmaDepositAccount: true, _id: { $ne: exceptId } },
        { $set: { defaultUmaDepositAccount: false } },
      );
    },
    async markDeleted(platformId, id, now, events) {
      const result = await accounts.updateOne(live(platformId, id), withEvents({ $set: { isDeleted: true, deletedAt: now, updatedAt: now } }, events));
      return result.matchedCount === 1;
    },
    async transitionStatus(platformId, id, from, to, now, events) {
      const doc = await accounts.findOneAndUpdate(
        { ...live(platformId, id), status: from },
        withEvents({ $set: { status: to, updatedAt: now } }, events),
        { returnDocument: 'after' },
      );
      return doc ? read(doc) : null;
    },
  };
}
