import { afterPosition, type PageQuery } from '../../../../lib/page-cursor';
import {
  DuplicateKeyError,
  type Doc,
  type DocumentCollection,
  type DocumentStore,
  type Filter,
} from '../../../../lib/store/document-store';
import {
  OperationKeyTaken,
  type OperationRecord,
  type Page,
  type ProviderAccountRecord,
  type StablecoinRecord,
  type StablecoinStore,
} from '../app/stablecoin-ports';

type Stored<T extends { id: string }> = Omit<T, 'id'> & { _id: string };

const toDoc = <T extends { id: string }>({ id, ...rest }: T): Doc => ({ _id: id, ...rest });
const fromDoc = <T>(doc: Doc | null): T | null => {
  if (!doc) return null;
  const { _id, ...rest } = doc;
  return { id: _id, ...rest } as T;
};
const defined = (filter: Record<string, string | undefined>): Filter =>
  Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined));

async function pageOf<T>(collection: DocumentCollection, filter: Filter, page: PageQuery): Promise<Page<T>> {
  const [docs, totalCount] = await Promise.all([
    collection.find({ ...filter, ...afterPosition(page.after, 'desc') }, {
      sort: { createdAt: -1, _id: -1 },
      limit: page.limit + 1,
    }),
    collection.countDocuments(filter),
  ]);
  return { items: docs.slice(0, page.limit).map((d) => fromDoc<T>(d)!), hasMore: docs.length > page.limit, totalCount };
}

/** Provider account links, stablecoins and their operations, most recent first in every list. */
export function createStablecoinDocumentStore(
  store: DocumentStore,
): StablecoinStore & { ensureIndexes(): Promise<void> } {
  const accounts = store.collection('stablecoin_provider_accounts');
  const coins = store.collection('stablecoins');
  const operations = store.collection<Doc & Stored<OperationRecord>>('stablecoin_operations');
  return {
    async ensureIndexes() {
      await accounts.createIndex({ keys: { platformId: 1, createdAt: -1 } });
      await coins.createIndex({ keys: { platformId: 1, createdAt: -1 } });
      // The documented filters of GET /stablecoin-provider-accounts and GET /stablecoins, newest first.
      await accounts.createIndex({
        keys: { platformId: 1, provider: 1, createdAt: -1 },
        name: 'provider_account_provider_created',
      });
      await accounts.createIndex({
        keys: { platformId: 1, status: 1, createdAt: -1 },
        name: 'provider_account_status_created',
      });
      await coins.createIndex({
        keys: { platformId: 1, issuanceStatus: 1, createdAt: -1 },
        name: 'stablecoin_issuance_created',
      });
      await coins.createIndex({
        keys: { platformId: 1, gridOperationsStatus: 1, createdAt: -1 },
        name: 'stablecoin_operations_status_created',
      });
      await coins.createIndex({
        keys: { platformId: 1, provider: 1, createdAt: -1 },
        name: 'stablecoin_provider_created',
      });
      await coins.createIndex({
        keys: { platformId: 1, stablecoinProviderAccountId: 1, providerTokenIdentifier: 1 },
        unique: true,
        name: 'one_registration_per_token',
      });
      await operations.createIndex({ keys: { platformId: 1, stablecoinId: 1, createdAt: -1 } });
      await operations.createIndex({ keys: { status: 1, createdAt: 1 } });
      await operations.createIndex({ keys: { nextAttemptAt: 1, createdAt: 1 } });
      await operations.createIndex({
        keys: { platformId: 1, 'idempotency.key': 1 },
        unique: true,
        partialFilter: { 'idempotency.key': { $exists: true } },
        name: 'one_operation_per_key',
      });
    },
    insertAccount: (record) => accounts.insertOne(toDoc(record)),
    account: async (platformId, id) => fromDoc<ProviderAccountRecord>(await accounts.findOne({ _id: id, platformId })),
    updateAccount: async (id, changes) =>
      fromDoc<ProviderAccountRecord>(
        await accounts.findOneAndUpdate({ _id: id }, { $set: changes }, { returnDocument: 'after' }),
      ),
    accounts: (platformId, filter, page) =>
      pageOf(accounts, {
        platformId,
        ...defined({ provider: filter.provider, status: filter.status, providerEnvironment: filter.environment }),
      }, page),
    insertStablecoin: (record) => coins.insertOne(toDoc(record)),
    stablecoin: async (platformId, id) => fromDoc<StablecoinRecord>(await coins.findOne({ _id: id, platformId })),
    updateStablecoin: async (id, changes) =>
      fromDoc<StablecoinRecord>(
        await coins.findOneAndUpdate({ _id: id }, { $set: changes }, { returnDocument: 'after' }),
      ),
    stablecoins: (platformId, filter, page) => pageOf(coins, { platformId, ...defined(filter) }, page),
    async insertOperation(record) {
      try {
        await operations.insertOne(toDoc(record) as Doc & Stored<OperationRecord>);
      } catch (err) {
        const key = record.idempotency?.key;
        if (
          err instanceof DuplicateKeyError && key
          && (await operations.findOne({ platformId: record.platformId, 'idempotency.key': key }))
        ) {
          throw new OperationKeyTaken(key);
        }
        throw err;
      }
    },
    operationByIdempotencyKey: async (platformId, key) =>
      fromDoc<OperationRecord>(await operations.findOne({ platformId, 'idempotency.key': key })),
    operation: async (platformId, id) => fromDoc<OperationRecord>(await operations.findOne({ _id: id, platformId })),
    operations: (platformId, stablecoinId, filter, page) =>
      pageOf(operations as DocumentCollection, { platformId, stablecoinId, ...defined(filter) }, page),
    moveOperation: async (id, from, changes) =>
      fromDoc<OperationRecord>(
        await operations.findOneAndUpdate({ _id: id, status: { $in: from } }, { $set: changes }, {
          returnDocument: 'after',
        }),
      ),
    async noteOperation(id, changes) {
      await operations.updateOne({ _id: id }, { $set: changes });
    },
    // A missing nextAttemptAt (never attempted) sorts first, as in MongoDB.
    unfinishedOperations: async (limit, now) =>
      (await operations.find(
        {
          $and: [
            {
              $or: [
                { status: { $in: ['CREATED', 'PENDING_FUNDING', 'PENDING_PROVIDER', 'PROCESSING'] } },
                { status: { $in: ['FAILED', 'EXPIRED'] }, ledgerDebited: true, ledgerRefunded: { $ne: true } },
              ],
            },
            { $or: [{ nextAttemptAt: { $exists: false } }, { nextAttemptAt: { $lte: now } }] },
          ],
        },
        { sort: { nextAttemptAt: 1, createdAt: 1 }, limit },
      )).map((d) => fromDoc<OperationRecord>(d)!),
  };
}
