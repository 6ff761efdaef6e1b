import { withEvents, withInitialEvents } from '../../../lib/bus/outbox';
import { DuplicateKeyError, type Doc, type DocumentCollection, type Filter } from '../../../lib/store/document-store';
import { DuplicateRecordError, type CustomerFilter, type CustomerStore } from '../app/accounts-store';
import type { Customer } from '../domain/customer';
import {
  completedStepsUpdate,
  findPage,
  fromDocument,
  pendingProvisioningFilter,
  present,
  toDocument,
} from './record-documents';

const UNIQUE_INDEXES = {
  platformCustomerId: 'customer_platform_customer_id',
  umaAddress: 'customer_uma_address',
} as const;

function duplicateOf(err: unknown): unknown {
  if (!(err instanceof DuplicateKeyError)) return err;
  return new DuplicateRecordError(err.index === UNIQUE_INDEXES.umaAddress ? 'umaAddress' : 'platformCustomerId');
}

function range(after?: string, before?: string): Filter | undefined {
  if (after === undefined && before === undefined) return undefined;
  return present({ $gte: after, $lte: before });
}

function listFilter(platformId: string, f: CustomerFilter): Filter {
  return present({
    platformId,
    platformCustomerId: f.platformCustomerId,
    customerType: f.customerType,
    region: f.region,
    currencies: f.currency,
    umaAddress: f.umaAddress,
    createdAt: range(f.createdAfter, f.createdBefore),
    updatedAt: range(f.updatedAfter, f.updatedBefore),
    isDeleted: f.includeDeleted ? undefined : false,
  });
}

// A plain `identifier` is one not sealed yet (sealLegacyIdentifiers seals it at start); it never leaves the store.
function read(doc: Doc): Customer {
  const { identifier: _legacy, ...rest } = fromDocument<Customer & { identifier?: string }>(doc, ['isDeleted']);
  return rest;
}

export type CustomerDocumentStore = CustomerStore & {
  createIndexes(): Promise<void>;
  /** Seals the plain identifiers of stored documents that hold one; answers how many. */
  sealLegacyIdentifiers(seal: (plaintext: string, customerId: string) => string): Promise<number>;
};

export function createCustomerStore(customers: DocumentCollection): CustomerDocumentStore {
  return {
    async createIndexes() {
      await customers.createIndex({
        keys: { platformId: 1, platformCustomerId: 1 },
        unique: true,
        partialFilter: { isDeleted: false },
        name: UNIQUE_INDEXES.platformCustomerId,
      });
      await customers.createIndex({
        keys: { platformId: 1, umaAddress: 1 },
        unique: true,
        name: UNIQUE_INDEXES.umaAddress,
      });
      await customers.createIndex({ keys: { umaAddress: 1 }, name: 'customer_uma_address_any_platform' });
      await customers.createIndex({ keys: { platformId: 1, createdAt: 1, _id: 1 }, name: 'customer_created' });
      // The documented filters of GET /customers (deleted customers left out unless asked for), in creation order;
      // a range of updatedAt is a range of its entries; a currency (customers hold several) picks few customers.
      await customers.createIndex({
        keys: { platformId: 1, isDeleted: 1, createdAt: 1, _id: 1 },
        name: 'customer_live_created',
      });
      await customers.createIndex({
        keys: { platformId: 1, isDeleted: 1, customerType: 1, createdAt: 1, _id: 1 },
        name: 'customer_type_created',
      });
      await customers.createIndex({
        keys: { platformId: 1, isDeleted: 1, region: 1, createdAt: 1, _id: 1 },
        name: 'customer_region_created',
      });
      await customers.createIndex({ keys: { platformId: 1, isDeleted: 1, updatedAt: 1 }, name: 'customer_updated' });
      await customers.createIndex({ keys: { currencies: 1 }, name: 'customer_currency' });
      await customers.createIndex({ keys: { 'provisioning.plannedAt': 1 }, name: 'customer_provisioning' });
      await customers.createIndex({
        keys: { 'emailChange.startedAt': 1 },
        partialFilter: { emailChange: { $exists: true } },
        name: 'customer_email_change',
      });
      // Only documents not sealed yet hold a plain `identifier`: the start's look for them
      // (sealLegacyIdentifiers) reads this index instead of every customer.
      await customers.createIndex({
        keys: { identifier: 1 },
        partialFilter: { identifier: { $exists: true } },
        name: 'customer_legacy_identifier',
      });
    },
    async insert(customer, events) {
      try {
        await customers.insertOne(withInitialEvents(toDocument(customer), events));
      } catch (err) {
        throw duplicateOf(err);
      }
    },
    async find(platformId, id) {
      const doc = await customers.findOne({ _id: id, platformId });
      return doc ? read(doc) : null;
    },
    list(platformId, filter, page) {
      return findPage(customers, listFilter(platformId, filter), page, read);
    },
    async findByUmaAddress(umaAddress, limit) {
      return (await customers.find({ umaAddress }, { limit })).map(read);
    },
    async replace(next, events, steps = []) {
      // The markers are only ever changed by their own writes, so a concurrent one is never undone.
      const { _id, provisioning: _marker, emailChange: _change, ...fields } = toDocument(next);
      const update = {
        $set: fields,
        $unset: { identifier: '' },
        ...(steps.length ? { $push: { provisioning: { $each: steps } } } : {}),
      };
      try {
        const result = await customers.updateOne(
          { _id, platformId: next.platformId, revision: next.revision - 1 },
          withEvents(update, events),
        );
        return result.matchedCount === 1;
      } catch (err) {
        throw duplicateOf(err);
      }
    },
    async completeProvisioning(platformId, customerId, accountIds) {
      await customers.updateOne({ _id: customerId, platformId }, completedStepsUpdate(accountIds));
    },
    async findPendingProvisioning(query) {
      return (await customers.find(pendingProvisioningFilter(query), { limit: query.limit, sort: { _id: 1 } })).map(
        read,
      );
    },
    async claimEmailChange({ platformId, customerId, revision, change, staleBefore }) {
      const free = { $or: [{ emailChange: { $exists: false } }, { 'emailChange.startedAt': { $lt: staleBefore } }] };
      const result = await customers.updateOne({ _id: customerId, platformId, revision, ...free }, {
        $set: { emailChange: change },
      });
      return result.matchedCount === 1;
    },
    async findEmailChangesStartedBefore(query) {
      const filter = {
        'emailChange.startedAt': { $lt: query.plannedBefore },
        ...(query.afterId ? { _id: { $gt: query.afterId } } : {}),
      };
      return (await customers.find(filter, { limit: query.limit, sort: { _id: 1 } })).map(read);
    },
    async releaseEmailChange(platformId, customerId, requestId) {
      await customers.updateOne({ _id: customerId, platformId, 'emailChange.requestId': requestId }, {
        $unset: { emailChange: '' },
      });
    },
    async setVerificationStatus({ platformId, customerId, status, now, events }) {
      const result = await customers.updateOne(
        { _id: customerId, platformId, verificationStatus: { $ne: status } },
        withEvents({ $set: { verificationStatus: status, updatedAt: now }, $inc: { revision: 1 } }, events),
      );
      return result.matchedCount === 1;
    },
    async setContactStatus({ platformId, customerId, channel, status, now }) {
      const member = `contactVerification.${channel}`;
      await customers.updateOne(
        { _id: customerId, platformId, [member]: { $exists: true } },
        { $set: { [member]: status, updatedAt: now }, $inc: { revision: 1 } },
      );
    },
    async setVerifiedPhone(platformId, customerId, phoneNumber, now) {
      await customers.updateOne({ _id: customerId, platformId }, {
        $set: { phoneNumber, updatedAt: now },
        $inc: { revision: 1 },
      });
      await customers.updateOne(
        { _id: customerId, platformId, 'contactVerification.phone': { $exists: true } },
        { $set: { 'contactVerification.phone': 'VERIFIED' } },
      );
    },
    async sealLegacyIdentifiers(seal) {
      const legacy = await customers.find({ identifier: { $exists: true } });
      for (const doc of legacy) {
        const plain = doc.identifier as string;
        await customers.updateOne({ _id: doc._id, identifier: plain }, {
          $set: { sealedIdentifier: seal(plain, doc._id) },
          $unset: { identifier: '' },
        });
      }
      return legacy.length;
    },
  };
}
