import { withEvents } from '../../../lib/bus/outbox';
import type { DomainEvent } from '../../../lib/bus/event-bus';
import type { DocumentCollection, DocumentStore, Filter } from '../../../lib/store/document-store';
import { ALL_PERMISSIONS, SANDBOX_TOKEN_NAME, type Permission } from '../domain/api-token';
import type { ApiTokenFilter, ApiTokenRecord, ApiTokenStore } from '../app/api-tokens';

/** `_id` is the client id (the hot path: every authentication reads by it). */
type ApiTokenDoc = {
  _id: string;
  id?: string;
  platformId: string;
  name?: string;
  permissions?: Permission[];
  secretHash: string;
  createdAt: string;
  updatedAt?: string;
  deletedAt?: string;
  _outbox?: DomainEvent[];
};
/** Per platform, the client ids of its live MANAGE tokens. */
type ManagerSetDoc = { _id: string; managers: string[] };

/** Tokens stored before names and permissions existed read as the sandbox token they were. */
function recordOf(doc: ApiTokenDoc): ApiTokenRecord {
  return {
    id: doc.id ?? `Token:${doc._id}`,
    clientId: doc._id,
    platformId: doc.platformId,
    name: doc.name ?? SANDBOX_TOKEN_NAME,
    permissions: doc.permissions ?? [...ALL_PERMISSIONS],
    secretHash: doc.secretHash,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt ?? doc.createdAt,
    ...(doc.deletedAt ? { deletedAt: doc.deletedAt } : {}),
  };
}

const LIVE = { deletedAt: { $exists: false } };

function filterOf(f: ApiTokenFilter): Filter {
  const range = (after?: string, before?: string) => ({
    ...(after ? { $gte: after } : {}),
    ...(before ? { $lte: before } : {}),
  });
  return {
    platformId: f.platformId,
    ...LIVE,
    ...(f.name ? { name: f.name } : {}),
    ...(f.createdAfter || f.createdBefore ? { createdAt: range(f.createdAfter, f.createdBefore) } : {}),
    ...(f.updatedAfter || f.updatedBefore ? { updatedAt: range(f.updatedAfter, f.updatedBefore) } : {}),
  };
}

export function createApiTokenStore(
  store: DocumentStore,
): ApiTokenStore & { tokens: DocumentCollection; createIndexes(): Promise<void> } {
  const tokens = store.collection<ApiTokenDoc>('api_tokens');
  const managers = store.collection<ManagerSetDoc>('api_token_managers');
  return {
    tokens: tokens as unknown as DocumentCollection,
    async createIndexes() {
      await tokens.createIndex({
        keys: { id: 1 },
        unique: true,
        name: 'api_token_id',
        partialFilter: { id: { $exists: true } },
      });
      await tokens.createIndex({ keys: { platformId: 1, createdAt: -1 }, name: 'api_token_platform_created' });
      // The documented filters of GET /tokens: a name's tokens newest first; a range of updatedAt.
      await tokens.createIndex({ keys: { platformId: 1, name: 1, createdAt: -1 }, name: 'api_token_name_created' });
      await tokens.createIndex({ keys: { platformId: 1, updatedAt: -1 }, name: 'api_token_updated' });
    },
    async findByClientId(clientId) {
      const doc = await tokens.findOne({ _id: clientId });
      return doc ? recordOf(doc) : null;
    },
    async findLive(platformId, id) {
      const doc = await tokens.findOne({ id, platformId, ...LIVE });
      return doc ? recordOf(doc) : null;
    },
    async insert(r) {
      await tokens.insertOne({
        _id: r.clientId,
        id: r.id,
        platformId: r.platformId,
        name: r.name,
        permissions: r.permissions,
        secretHash: r.secretHash,
        createdAt: r.createdAt,
        updatedAt: r.updatedAt,
      });
    },
    async upsertSandbox(r) {
      const result = await tokens.updateOne(
        { _id: r.clientId },
        {
          $set: { platformId: r.platformId, secretHash: r.secretHash, permissions: r.permissions },
          $unset: { deletedAt: '' },
          $setOnInsert: { id: r.id, name: r.name, createdAt: r.createdAt, updatedAt: r.updatedAt },
        },
        { upsert: true },
      );
      // A token stored before ids existed gets one.
      await tokens.updateOne({ _id: r.clientId, id: { $exists: false } }, {
        $set: { id: r.id, name: r.name, updatedAt: r.updatedAt },
      });
      return result.upsertedId !== undefined;
    },
    async list(f, page) {
      const filter = filterOf(f);
      const after = page.after
        ? {
          $or: [{ createdAt: { $lt: page.after.createdAt } }, {
            createdAt: page.after.createdAt,
            id: { $lt: page.after.id },
          }],
        }
        : {};
      const docs = await tokens.find({ $and: [filter, after] }, {
        sort: { createdAt: -1, id: -1 },
        limit: page.limit + 1,
      });
      const total = await tokens.countDocuments(filter);
      return { items: docs.slice(0, page.limit).map(recordOf), hasMore: docs.length > page.limit, total };
    },
    async markDeleted(platformId, id, now, event) {
      const live = await tokens.findOne({ id, platformId, ...LIVE });
      if (!live) return null;
      const record = recordOf(live);
      const done = await tokens.findOneAndUpdate(
        { _id: live._id, ...LIVE },
        withEvents({ $set: { deletedAt: now, updatedAt: now } }, [event(record)]),
        { returnDocument: 'after' },
      );
      return done ? recordOf(done) : null;
    },
    async addManager(platformId, clientId) {
      await managers.updateOne({ _id: platformId }, { $addToSet: { managers: clientId } }, { upsert: true });
    },
    async removeManagerUnlessLast(platformId, clientId) {
      const result = await managers.updateOne(
        { _id: platformId, managers: clientId, 'managers.1': { $exists: true } },
        { $pull: { managers: clientId } },
      );
      return result.modifiedCount === 1;
    },
  };
}
