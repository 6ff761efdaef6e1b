import { DuplicateKeyError, type Doc, type DocumentStore } from '../../../../lib/store/document-store';
import type { SignedRetryRecord } from '../../domain/wallet-auth/signed-retry-record';
import type { SignedRetryStore } from '../../app/wallet-auth/wallet-auth-stores';
import { fromDocument, toDocument } from './document-mapping';

export function createSignedRetryDocumentStore(
  store: DocumentStore,
): SignedRetryStore & { ensureIndexes(): Promise<void> } {
  const records = store.collection<Doc>('wallet_signed_retries');
  const read = (doc: Doc | null) => fromDocument<SignedRetryRecord>(doc);
  return {
    async ensureIndexes() {
      await records.createIndex({
        keys: { dedupKey: 1 },
        unique: true,
        partialFilter: { dedupKey: { $exists: true } },
        name: 'dedup_key',
      });
      await records.createIndex({ keys: { 'run.state': 1, 'run.external': 1 }, name: 'run_state' });
      // Retention: the purge finds unused challenges and settled operations by index, not by a scan.
      await records.createIndex({ keys: { expiresAt: 1 }, partialFilter: { state: 'ISSUED' }, name: 'unused_expiry' });
      await records.createIndex({ keys: { platformId: 1, state: 1, expiresAt: 1 }, name: 'pending_by_platform' });
      await records.createIndex({
        keys: { 'run.settledAt': 1 },
        partialFilter: { 'run.settledAt': { $exists: true } },
        name: 'settled_at',
      });
    },
    async insert(record) {
      await records.insertOne(toDocument(record) as Doc);
    },
    async countPending(platformId, accountId, now) {
      return records.countDocuments({
        platformId,
        state: 'ISSUED',
        expiresAt: { $gt: now.toISOString() },
        ...(accountId ? { 'context.accountId': accountId } : {}),
      });
    },
    async removeIssued(id) {
      await records.deleteOne({ _id: id, state: 'ISSUED' });
    },
    async insertOrFind(record) {
      try {
        await records.insertOne(toDocument(record) as Doc);
        return record;
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
        const winner = read(await records.findOne({ dedupKey: record.dedupKey }));
        if (!winner) throw err;
        return winner;
      }
    },
    async find(platformId, id) {
      return read(await records.findOne({ _id: id, platformId }));
    },
    async findByDedupKey(dedupKey) {
      return read(await records.findOne({ dedupKey }));
    },
    async claim({ id, claim, run, now, contextPatch = {} }) {
      const patch = Object.fromEntries(Object.entries(contextPatch).map(([key, value]) => [`context.${key}`, value]));
      return read(
        await records.findOneAndUpdate(
          { _id: id, state: 'ISSUED', expiresAt: { $gt: now.toISOString() } },
          { $set: { state: 'CLAIMED', claim, run, ...patch } },
          { returnDocument: 'after' },
        ),
      );
    },
    async settle(id, runId, outcome) {
      const set: Record<string, unknown> = { 'run.state': outcome.state, 'run.settledAt': outcome.settledAt };
      if (outcome.result) set['run.result'] = outcome.result;
      if (outcome.error) set['run.error'] = outcome.error;
      return read(
        await records.findOneAndUpdate({ _id: id, 'run.id': runId, 'run.state': 'PENDING' }, { $set: set }, {
          returnDocument: 'after',
        }),
      );
    },
    async purge({ unusedBefore, settledBefore }) {
      const unused = await records.deleteMany({ state: 'ISSUED', expiresAt: { $lt: unusedBefore.toISOString() } });
      const settled = await records.deleteMany({
        'run.state': { $in: ['SETTLED', 'FAILED'] },
        'run.settledAt': { $lt: settledBefore.toISOString() },
      });
      return unused.deletedCount + settled.deletedCount;
    },
    async findPending(limit) {
      const docs = await records.find({ 'run.state': 'PENDING', 'run.external': false }, {
        limit,
        sort: { 'run.startedAt': 1 },
      });
      return docs.map((doc) => read(doc)!);
    },
  };
}
