import { withEvents } from '../../../lib/bus/outbox';
import type { DocumentCollection } from '../../../lib/store/document-store';
import type { ImportStore } from '../app/bulk-import';
import type { ImportJob, ImportRow } from '../domain/bulk-import';
import { fromDocument, toDocument } from './record-documents';

const INSERT_BATCH = 500;

export function createImportStore(
  jobs: DocumentCollection,
  rows: DocumentCollection,
): ImportStore & { createIndexes(): Promise<void> } {
  const readJob = (doc: Parameters<typeof fromDocument>[0]) => fromDocument<ImportJob>(doc);
  const readRow = (doc: Parameters<typeof fromDocument>[0]) => fromDocument<ImportRow>(doc);
  const count = (jobId: string, state: string) => rows.countDocuments({ jobId, state });
  return {
    async createIndexes() {
      await jobs.createIndex({ keys: { status: 1, createdAt: 1 }, name: 'import_job_status' });
      await rows.createIndex({ keys: { jobId: 1, state: 1, index: 1 }, name: 'import_row_state' });
    },
    async create(job, list) {
      for (let i = 0; i < list.length; i += INSERT_BATCH) {
        await Promise.all(list.slice(i, i + INSERT_BATCH).map((r) => rows.insertOne(toDocument(r))));
      }
      await jobs.insertOne(toDocument(job));
    },
    async find(platformId, id) {
      const doc = await jobs.findOne({ _id: id, platformId });
      return doc ? readJob(doc) : null;
    },
    async unfinished(limit) {
      return (await jobs.find({ status: { $in: ['PENDING', 'PROCESSING'] } }, { sort: { createdAt: 1 }, limit })).map(
        readJob,
      );
    },
    async rowsToDo(jobId, claimedBefore, limit) {
      const filter = { jobId, $or: [{ state: 'PENDING' }, { state: 'CLAIMED', claimedAt: { $lt: claimedBefore } }] };
      return (await rows.find(filter, { sort: { index: 1 }, limit })).map(readRow);
    },
    async claim(row, now) {
      const result = await rows.updateOne({ _id: row.id, state: row.state, attempts: row.attempts }, {
        $set: { state: 'CLAIMED', claimedAt: now },
        $inc: { attempts: 1 },
      });
      return result.matchedCount === 1;
    },
    async finishRow(rowId, outcome) {
      const set = outcome.state === 'DONE'
        ? { state: 'DONE', customerId: outcome.customerId }
        : { state: 'FAILED', error: outcome.error };
      await rows.updateOne({ _id: rowId, state: 'CLAIMED' }, { $set: set, $unset: { body: '', claimedAt: '' } });
    },
    async progress(jobId, total) {
      const [successful, failed] = await Promise.all([count(jobId, 'DONE'), count(jobId, 'FAILED')]);
      return { total, processed: successful + failed, successful, failed };
    },
    async failedRows(jobId) {
      return (await rows.find({ jobId, state: 'FAILED' }, { sort: { index: 1 }, limit: 1000 })).map(readRow);
    },
    async setStatus(job, status, events, completedAt) {
      const result = await jobs.updateOne(
        {
          _id: job.id,
          status: { $in: ['PENDING', 'PROCESSING'] },
          ...(status === 'PROCESSING' ? { status: 'PENDING' } : {}),
        },
        withEvents({ $set: { status, ...(completedAt ? { completedAt } : {}) } }, events),
      );
      return result.matchedCount === 1;
    },
  };
}
