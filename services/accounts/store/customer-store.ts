import { withEvents, withInitialEvents } from '../../../lib/bus/outbox';
import { DuplicateKeyError, type DocumentCollection, type Filter } from '../../../lib/store/document-store';
import { DuplicateRecordError, type CustomerFilter, type CustomerStore } from '../app/accounts-store';
import type { Customer } from '../domain/customer';
import { findPage, fromDocument, present, toDocument } from './record-documents';

const UNIQUE_INDEXES = { platformCustomerId: 'customer_platform_customer_id', umaAddress: 'customer_uma_address' } as const;

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

const read = (doc: Parameters<typeof fromDocument>[0]) => fromDocument<Customer>(doc, ['isDeleted']);

export function createCustomerStore(customers: DocumentCollection): CustomerStore & { createIndexes(): Promise<void> } {
  return {
    async createIndexes() {
      await customers.createIndex({
        keys: { platformId: 1, platformCustomerId: 1 }, unique: true, partialFilter: { isDeleted: false }, name: UNIQUE_INDEXES.platformCustomerId,
      });
      await customers.createIndex({ keys: { platformId: 1, umaAddress: 1 }, unique: true, name: UNIQUE_INDEXES.umaAddress });
      await customers.createIndex({ keys: { platformId: 1, createdAt: 1, _id: 1 }, name: 'customer_created' });
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
    async replace(next, events) {
      const { _id, ...fields } = toDocument(next);
      try {
        const result = await customers.updateOne({ _id, platformId: next.platformId, revision: next.revision - 1 }, withEvents({ $set: fields }, events));
        return result.matchedCount === 1;
      } catch (err) {
        throw duplicateOf(err);
      }
    },
  };
}
