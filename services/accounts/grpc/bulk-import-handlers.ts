import {
  BulkImportServiceService,
  CustomerImportJob_Status,
  type CustomerImportJob,
} from '../../../gen/accounts/v1/bulk_import';
import { requirePlatform } from '../../../lib/grpc/call-context';
import { bindService } from '../../../lib/grpc/service-binding';
import type { BulkImport, ImportJobView } from '../app/bulk-import';

export function importJobMessage(v: ImportJobView): CustomerImportJob {
  return {
    id: v.job.id,
    status: v.job.status as CustomerImportJob_Status,
    progress: v.progress,
    errors: v.errors.map((e) => ({
      correlationId: e.correlationId,
      code: e.code,
      message: e.message,
      fieldErrors: (e.fieldErrors ?? []).map((f) => ({ field: f.field, message: f.message ?? '' })),
    })),
    completedAt: v.job.completedAt,
  };
}

export function bindBulkImportService(imports: BulkImport) {
  return bindService(BulkImportServiceService, {
    async startCustomerImport(req, ctx) {
      const job = await imports.start(requirePlatform(ctx), Buffer.from(req.content));
      return {
        jobId: job.id,
        status: job.status === 'FAILED'
          ? CustomerImportJob_Status.PROCESSING
          : (job.status as CustomerImportJob_Status),
      };
    },
    async getCustomerImportJob(req, ctx) {
      return { job: importJobMessage(await imports.get(requirePlatform(ctx), req.id)) };
    },
  });
}
