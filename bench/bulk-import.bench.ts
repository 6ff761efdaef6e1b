import { startTestSystem } from '../test/system-harness';
import { createKeepAliveClient } from './keep-alive-client';

/**
 * Customers per second through a CSV import (upload to COMPLETED) beside single POST /customers
 * from 16 concurrent keep-alive clients, the same customers in the same run (system in memory).
 * Run: npm run bench -- bulk
 */
export interface BulkImportBenchmarkResult {
  rows: number;
  singlePostPerSecond: number;
  bulkRowsPerSecond: number;
  /** bulk ÷ single. */
  ratio: number;
}

const HEADER = 'platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country';
const person = (id: string, i: number) => ({
  id,
  fullName: `Person ${i}`,
  birthDate: '1990-01-15',
  line1: `${i} Main St`,
  city: 'Austin',
  state: 'TX',
  postalCode: '78701',
  country: 'US',
});

export async function runBulkImportBenchmark(
  rows = Number(process.env.BULK_BENCH_ROWS ?? 1000),
): Promise<BulkImportBenchmarkResult> {
  const sys = await startTestSystem({ env: { ACCOUNTS_BULK_IMPORT_POLL_MS: '10', ACCOUNTS_REPAIR_INTERVAL_MS: '0' } });
  try {
    const auth = `Basic ${Buffer.from(`${sys.sandbox.tokenId}:${sys.sandbox.clientSecret}`).toString('base64')}`;
    const call = createKeepAliveClient(sys.baseUrl, { authorization: auth });
    const run = Date.now().toString(36);

    // Single creates: 16 clients, each its share.
    let next = 0;
    const singleStart = process.hrtime.bigint();
    await Promise.all(Array.from({ length: 16 }, async () => {
      for (let i = next++; i < rows; i = next++) {
        const p = person(`single-${run}-${i}`, i);
        const res = await call('POST', '/customers', {
          customerType: 'INDIVIDUAL',
          platformCustomerId: p.id,
          fullName: p.fullName,
          birthDate: p.birthDate,
          address: { line1: p.line1, city: p.city, state: p.state, postalCode: p.postalCode, country: p.country },
        });
        if (res.status !== 201) throw new Error(`create answered ${res.status}`);
      }
    }));
    const singleSeconds = Number(process.hrtime.bigint() - singleStart) / 1e9;

    const csv = [
      HEADER,
      ...Array.from({ length: rows }, (_, i) => {
        const p = person(`bulk-${run}-${i}`, i);
        return [p.id, 'INDIVIDUAL', p.fullName, p.birthDate, p.line1, p.city, p.state, p.postalCode, p.country].join(
          ',',
        );
      }),
    ].join('\n');
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'bench.csv');
    const bulkStart = process.hrtime.bigint();
    const upload = await fetch(`${sys.baseUrl}/customers/bulk/csv`, {
      method: 'POST',
      headers: { authorization: auth },
      body: form,
    });
    const { jobId } = (await upload.json()) as { jobId: string };
    for (;;) {
      const job = await call('GET', `/customers/bulk/jobs/${jobId}`);
      if (job.body.status === 'COMPLETED' || job.body.status === 'FAILED') {
        if (job.body.progress.successful !== rows) throw new Error(`import ended ${JSON.stringify(job.body.progress)}`);
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    const bulkSeconds = Number(process.hrtime.bigint() - bulkStart) / 1e9;
    const singlePostPerSecond = Math.round(rows / singleSeconds);
    const bulkRowsPerSecond = Math.round(rows / bulkSeconds);
    return {
      rows,
      singlePostPerSecond,
      bulkRowsPerSecond,
      ratio: Number((bulkRowsPerSecond / singlePostPerSecond).toFixed(2)),
    };
  } finally {
    await sys.stop();
  }
}
