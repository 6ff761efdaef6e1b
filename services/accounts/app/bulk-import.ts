import type { DomainEvent } from '../../../lib/bus/event-bus';
import type { NewEvent } from '../../../lib/bus/outbox';
import { AppError, toAppError, type FieldError } from '../../../lib/errors';
import { newId } from '../../../lib/ids';
import type { Logger } from '../../../lib/log';
import {
  correlationIdOf,
  customerRequestOf,
  readCustomerCsv,
  rowToCustomerBody,
  type ImportJob,
  type ImportRow,
  type ImportRowError,
} from '../domain/bulk-import';
import type { Customers } from './customers';

export interface ImportProgress {
  total: number;
  processed: number;
  successful: number;
  failed: number;
}

export interface ImportStore {
  /** The job and its rows (rows first: a job is visible only once every row is stored). */
  create(job: ImportJob, rows: ImportRow[]): Promise<void>;
  find(platformId: string, id: string): Promise<ImportJob | null>;
  /** Jobs not finished yet, oldest first. */
  unfinished(limit: number): Promise<ImportJob[]>;
  /** Rows of a job still to do: PENDING, or CLAIMED before `claimedBefore` (a process stopped on them). */
  rowsToDo(jobId: string, claimedBefore: string, limit: number): Promise<ImportRow[]>;
  /** Claims a row if it is still as read (state and attempts); false if another worker has it. */
  claim(row: ImportRow, now: string): Promise<boolean>;
  finishRow(
    rowId: string,
    outcome: { state: 'DONE'; customerId: string } | { state: 'FAILED'; error: ImportRowError },
  ): Promise<void>;
  progress(jobId: string, total: number): Promise<ImportProgress>;
  failedRows(jobId: string): Promise<ImportRow[]>;
  /** Moves the job from PENDING/PROCESSING to `status` with its events; false if it already moved. */
  setStatus(job: ImportJob, status: ImportJob['status'], events: DomainEvent[], completedAt?: string): Promise<boolean>;
}

export interface ImportJobView {
  job: ImportJob;
  progress: ImportProgress;
  errors: ImportRowError[];
}

export interface BulkImport {
  start(platformId: string, content: Buffer): Promise<ImportJob>;
  get(platformId: string, id: string): Promise<ImportJobView>;
  /** The worker's pass: every unfinished job, some rows each. Answers how many rows were done. */
  work(): Promise<number>;
}

const ROWS_PER_PASS = 200;
const CONCURRENCY = 8;

/** The webhook's data: the REST BulkCustomerImportJob. */
export function importJobRecord(view: ImportJobView) {
  return {
    id: view.job.id,
    status: view.job.status,
    progress: view.progress,
    errors: view.errors.map((e) => ({
      correlationId: e.correlationId,
      code: e.code,
      message: e.message,
      ...(e.fieldErrors?.length
        ? { details: { errors: e.fieldErrors.map((f) => ({ field: f.field, message: f.message ?? '' })) } }
        : {}),
    })),
    ...(view.job.completedAt ? { completedAt: view.job.completedAt } : {}),
  };
}

/**
 * CSV imports: the upload stores one row document per line and answers at once; a worker creates
 * the customers through the same contract check and use case as POST /customers. Each row is claimed, then finished
 * DONE or FAILED, so a restart resumes where it stopped; progress is counted from the rows.
 */
export function createBulkImport(deps: {
  store: ImportStore;
  customers: Customers;
  newEvent: NewEvent;
  clock: () => Date;
  logger: Logger;
  claimTimeoutMs: number;
}): BulkImport {
  const { store } = deps;
  const now = () => deps.clock().toISOString();

  const view = async (job: ImportJob): Promise<ImportJobView> => {
    const [progress, failed] = await Promise.all([store.progress(job.id, job.total), store.failedRows(job.id)]);
    return {
      job,
      progress,
      errors: [...(job.fileError ? [job.fileError] : []), ...failed.map((r) => r.error!).filter(Boolean)],
    };
  };

  const finishJob = async (job: ImportJob, status: 'COMPLETED' | 'FAILED') => {
    const completedAt = now();
    const done = { ...job, status, completedAt };
    const record = importJobRecord(await view(done));
    const event = deps.newEvent({
      type: `BULK_UPLOAD.${status}`,
      version: 1,
      platformId: job.platformId,
      aggregateId: job.id,
      data: record,
    });
    await store.setStatus(job, status, [event], completedAt);
  };

  const createRow = async (job: ImportJob, row: ImportRow) => {
    if (!row.body) {
      const fieldErrors: FieldError[] = row.rowErrors ?? [];
      return store.finishRow(row.id, {
        state: 'FAILED',
        error: { correlationId: row.correlationId, code: 'INVALID_INPUT', message: 'Invalid row', fieldErrors },
      });
    }
    try {
      const { fields, shapeErrors } = customerRequestOf(row.body);
      const customer = await deps.customers.create(job.platformId, fields, shapeErrors);
      await store.finishRow(row.id, { state: 'DONE', customerId: customer.id });
    } catch (err) {
      const e = toAppError(err);
      // A row retried after a stop may already have created its customer before the stop.
      if (e.code === 'CONFLICT' && row.attempts > 0 && e.details?.field === 'platformCustomerId') {
        const existing = await deps.customers.list(job.platformId, {
          platformCustomerId: String(row.body.platformCustomerId),
          includeDeleted: false,
          limit: 1,
        });
        if (existing.items[0] && existing.items[0].createdAt >= job.createdAt) {
          return store.finishRow(row.id, { state: 'DONE', customerId: existing.items[0].id });
        }
      }
      if (e.code === 'INTERNAL_ERROR' || e.code === 'UNAVAILABLE') throw err; // retried on a later pass
      const fieldErrors = e.details?.errors as FieldError[] | undefined;
      await store.finishRow(row.id, {
        state: 'FAILED',
        error: {
          correlationId: row.correlationId,
          code: e.code,
          message: e.message,
          ...(fieldErrors ? { fieldErrors } : {}),
        },
      });
    }
  };

  const workOn = async (job: ImportJob): Promise<number> => {
    if (job.status === 'PENDING') await store.setStatus(job, 'PROCESSING', []);
    const claimedBefore = new Date(deps.clock().getTime() - deps.claimTimeoutMs).toISOString();
    const rows = await store.rowsToDo(job.id, claimedBefore, ROWS_PER_PASS);
    let done = 0;
    for (let i = 0; i < rows.length; i += CONCURRENCY) {
      await Promise.all(
        rows.slice(i, i + CONCURRENCY).map(async (row) => {
          if (!(await store.claim(row, now()))) return;
          try {
            await createRow(job, row);
            done++;
          } catch (err) {
            deps.logger.warn('import row failed; retried on a later pass', { jobId: job.id, row: row.index, err });
          }
        }),
      );
    }
    const progress = await store.progress(job.id, job.total);
    if (progress.processed === job.total) await finishJob(job, progress.successful === 0 ? 'FAILED' : 'COMPLETED');
    return done;
  };

  return {
    async start(platformId, content) {
      if (!content.length) {
        throw AppError.invalidInput('Invalid upload', [{ field: 'file', message: 'must not be empty' }]);
      }
      const id = newId('BulkUploadJob');
      const createdAt = now();
      const parsed = readCustomerCsv(content);
      if ('error' in parsed) {
        const job: ImportJob = { id, platformId, status: 'PENDING', total: 0, fileError: parsed.error, createdAt };
        await store.create(job, []);
        await finishJob(job, 'FAILED');
        return job;
      }
      const rows: ImportRow[] = parsed.rows.map((r, index) => ({
        id: `${id}:${index}`,
        jobId: id,
        platformId,
        index,
        correlationId: correlationIdOf(r, index),
        state: 'PENDING',
        attempts: 0,
        ...rowToCustomerBody(r),
      }));
      const job: ImportJob = { id, platformId, status: 'PENDING', total: rows.length, createdAt };
      await store.create(job, rows);
      return job;
    },

    async get(platformId, id) {
      const job = await store.find(platformId, id);
      if (!job) throw AppError.notFound('Bulk upload job', 'BULK_UPLOAD_JOB_NOT_FOUND');
      return view(job);
    },

    async work() {
      let done = 0;
      for (const job of await store.unfinished(10)) done += await workOn(job);
      return done;
    },
  };
}
