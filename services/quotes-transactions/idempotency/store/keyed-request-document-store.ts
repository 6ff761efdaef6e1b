import { createHash } from 'node:crypto';
import { DuplicateKeyError, type DocumentStore } from '../../../../lib/store/document-store';
import type { KeyedRequestStore } from '../app/keyed-requests';
import type { KeyedRequestRecord, KeyedRequestScope } from '../domain/keyed-request';

type KeyedRequestDoc = { _id: string } & Omit<KeyedRequestRecord, 'leaseUntil' | 'createdAt' | 'expiresAt'> & {
  leaseUntil: string;
  createdAt: string;
  expiresAt: string;
};

export const KEYED_REQUESTS_COLLECTION = 'idempotency_keys';

/** One record per platform, agent and key; the id is a digest so that any key fits. */
function idOf(scope: KeyedRequestScope): string {
  return createHash('sha256').update(JSON.stringify([scope.platformId, scope.agentId ?? '', scope.key])).digest(
    'base64url',
  );
}

function toDoc(r: KeyedRequestRecord): KeyedRequestDoc {
  return {
    _id: idOf(r),
    ...r,
    leaseUntil: r.leaseUntil.toISOString(),
    createdAt: r.createdAt.toISOString(),
    expiresAt: r.expiresAt.toISOString(),
  };
}

function fromDoc(doc: KeyedRequestDoc): KeyedRequestRecord {
  const { _id, ...rest } = doc;
  return {
    ...rest,
    leaseUntil: new Date(doc.leaseUntil),
    createdAt: new Date(doc.createdAt),
    expiresAt: new Date(doc.expiresAt),
  };
}

export function createKeyedRequestDocumentStore(store: DocumentStore): KeyedRequestStore {
  const records = store.collection<KeyedRequestDoc>(KEYED_REQUESTS_COLLECTION);
  return {
    async ensureIndexes() {
      await records.createIndex({ keys: { expiresAt: 1 }, name: 'expiry' });
    },
    async insert(record) {
      try {
        await records.insertOne(toDoc(record));
        return true;
      } catch (err) {
        if (err instanceof DuplicateKeyError) return false;
        throw err;
      }
    },
    async get(scope) {
      const doc = await records.findOne({ _id: idOf(scope) });
      return doc ? fromDoc(doc) : null;
    },
    async takeOver(scope, claim, next) {
      const r = await records.updateOne({ _id: idOf(scope), claim, state: 'IN_FLIGHT' }, {
        $set: { claim: next.claim, leaseUntil: next.leaseUntil.toISOString() },
      });
      return r.modifiedCount === 1;
    },
    async complete(scope, claim, done) {
      const r = await records.updateOne(
        { _id: idOf(scope), claim, state: 'IN_FLIGHT' },
        { $set: { state: 'DONE', response: done.response, expiresAt: done.expiresAt.toISOString() } },
      );
      return r.modifiedCount === 1;
    },
    async remove(scope, claim) {
      return (await records.deleteOne({ _id: idOf(scope), claim })).deletedCount === 1;
    },
    async purgeExpired(now) {
      return (await records.deleteMany({ expiresAt: { $lte: now.toISOString() } })).deletedCount;
    },
  };
}
