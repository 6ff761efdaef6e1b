import type { CustomerImportJob } from '../../gen/accounts/v1/bulk_import';
import { AppError } from '../../lib/errors';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { callContext } from '../http/call-context';
import { readMultipart } from '../http/multipart-body';
import { RestRequestReader, withoutAbsent } from './rest-request';
import { OperationHandlers } from './operation-routes';

const LIMITS = { fileField: 'file', maxFileBytes: 10 * 1024 * 1024, maxFields: 5, maxFieldBytes: 1024, words: '10 MB' };

/** The REST BulkCustomerImportJob. */
export function importJobJson(job: CustomerImportJob) {
  return withoutAbsent({
    id: job.id,
    status: job.status,
    progress: job.progress,
    errors: job.errors.map((e) =>
      withoutAbsent({
        correlationId: e.correlationId,
        code: e.code,
        message: e.message,
        details: e.fieldErrors.length
          ? { errors: e.fieldErrors.map((f) => ({ field: f.field, message: f.message })) }
          : undefined,
      })
    ),
    completedAt: job.completedAt,
  });
}

/** POST /customers/bulk/csv (multipart, field `file`) → 202 with a job; GET /customers/bulk/jobs/{jobId}. */
export function bulkImportRoutes(peers: PeerClients): OperationHandlers {
  const routes = new OperationHandlers();

  routes.on('uploadCustomersCsv', async (req, res) => {
    const { file } = await readMultipart(req, LIMITS);
    if (!file) throw AppError.invalidInput('Invalid upload', [{ field: 'file', message: 'is required' }]);
    const started = await peers.bulkImport.startCustomerImport(
      { fileName: file.fileName, content: file.content },
      callContext(res),
    );
    res.status(202).json({ jobId: started.jobId, status: started.status });
  });

  routes.on('getBulkCustomerImportJob', async (req, res) => {
    const q = new RestRequestReader(req);
    const id = q.pathId('jobId', 'BulkUploadJob');
    q.done();
    const { job } = await peers.bulkImport.getCustomerImportJob({ id }, callContext(res));
    res.status(200).json(importJobJson(job!));
  });

  return routes;
}
