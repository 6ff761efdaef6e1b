import { withEvents, withInitialEvents } from '../../../lib/bus/outbox';
import { DuplicateKeyError, type Doc, type DocumentCollection } from '../../../lib/store/document-store';
import { DuplicateRecordError } from '../app/accounts-store';
import type { ExternalAccountStore } from '../app/external-account-store';
import type { ExternalAccount } from '../domain/external-account';
import { findPage, fromDocument, ownerCondition, ownerKeyOf, present, toDocument } from './record-documents';

const read = (doc: Doc) => fromDocument<ExternalAccount>(doc);

/** Deleted accounts stay as tombstones (isDeleted) so that their DELETED event leaves through the outbox. */
export function createExternalAccountStore(
  accounts: DocumentCollection,
): ExternalAccountStore & { createIndexes(): Promise<void> } {
  const live = (platformId: string, id: string) => ({ _id: id, platformId, isDeleted: false });
  const updated = async (filter: Record<string, unknown>, update: Record<string, unknown>) => {
    const doc = await accounts.findOneAndUpdate(filter, update, { returnDocument: 'after' });
    return doc ? read(doc) : null;
  };
  return {
    async createIndexes() {
      await accounts.createIndex({
        keys: { platformId: 1, ownerKey: 1, fingerprint: 1 },
        unique: true,
        partialFilter: { isDeleted: false },
        name: 'external_account_destination',
      });
      await accounts.createIndex({
        keys: { platformId: 1, ownerKey: 1, createdAt: 1, _id: 1 },
        name: 'external_account_created',
      });
      // The documented filters of GET /customers/external-accounts (no customerId: every customer's), live ones in
      // creation order.
      await accounts.createIndex({
        keys: { platformId: 1, isDeleted: 1, createdAt: 1, _id: 1 },
        name: 'external_account_live_created',
      });
      await accounts.createIndex({
        keys: { platformId: 1, isDeleted: 1, currency: 1, createdAt: 1, _id: 1 },
        name: 'external_account_currency_created',
      });
      await accounts.createIndex({
        keys: { platformId: 1, ownerKey: 1, isDeleted: 1, currency: 1, createdAt: 1, _id: 1 },
        name: 'external_account_owner_currency_created',
      });
      await accounts.createIndex({
        keys: { clearingPreviousDefault: 1, createdAt: 1 },
        name: 'external_account_default_clearing',
      });
      await accounts.createIndex({
        keys: { 'ownershipChallenge.completesAt': 1 },
        name: 'external_account_liveness_due',
      });
    },
    async insert(account, events, options = {}) {
      const extra = {
        ownerKey: ownerKeyOf(account.customerId),
        isDeleted: false,
        ...(options.clearsPreviousDefault ? { clearingPreviousDefault: true } : {}),
      };
      try {
        await accounts.insertOne(withInitialEvents(toDocument(account, extra), events));
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
      const query = present({
        platformId,
        ...ownerCondition(filter.owner),
        currency: filter.currency,
        isDeleted: false,
      });
      return findPage(accounts, query, page, read);
    },
    async clearPreviousDefaults(account, now) {
      const older = {
        $or: [{ createdAt: { $lt: account.createdAt } }, { createdAt: account.createdAt, _id: { $lt: account.id } }],
      };
      await accounts.updateMany(
        {
          platformId: account.platformId,
          customerId: account.customerId,
          isDeleted: false,
          defaultUmaDepositAccount: true,
          ...older,
        },
        { $set: { defaultUmaDepositAccount: false, updatedAt: now } },
      );
      await accounts.updateOne({ _id: account.id }, { $unset: { clearingPreviousDefault: '' } });
    },
    async findPendingDefaultClearing(query) {
      const filter = {
        clearingPreviousDefault: true,
        createdAt: { $lte: query.plannedBefore },
        ...(query.afterId ? { _id: { $gt: query.afterId } } : {}),
      };
      const docs = await accounts.find(filter, { limit: query.limit, sort: { _id: 1 } });
      return docs.map(read);
    },
    async markDeleted(platformId, id, now, events) {
      const result = await accounts.updateOne(
        live(platformId, id),
        withEvents({ $set: { isDeleted: true, deletedAt: now, updatedAt: now } }, events),
      );
      return result.matchedCount === 1;
    },
    transitionStatus({ platformId, id, from, to, now, events }) {
      return updated(
        { ...live(platformId, id), status: from },
        withEvents({ $set: { status: to, updatedAt: now }, $unset: { ownershipChallenge: '' } }, events),
      );
    },
    startOwnershipChallenge({ platformId, id, from, challenge, now, events }) {
      const update = {
        $set: { status: 'PENDING_OWNERSHIP_VERIFICATION', ownershipChallenge: challenge, updatedAt: now },
      };
      return updated({ ...live(platformId, id), status: from }, withEvents(update, events));
    },
    completeOwnershipChallenge({ platformId, id, nonce, to, now, events }) {
      const filter = {
        ...live(platformId, id),
        status: 'PENDING_OWNERSHIP_VERIFICATION',
        'ownershipChallenge.nonce': nonce,
      };
      return updated(
        filter,
        withEvents({ $set: { status: to, updatedAt: now }, $unset: { ownershipChallenge: '' } }, events),
      );
    },
    async findDueLivenessChallenges(now, limit) {
      const docs = await accounts.find({
        isDeleted: false,
        status: 'PENDING_OWNERSHIP_VERIFICATION',
        'ownershipChallenge.method': 'LIVENESS',
        'ownershipChallenge.completesAt': { $lte: now },
      }, { limit });
      return docs.map(read);
    },
  };
}
