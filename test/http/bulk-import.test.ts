import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REFERENCE_WEBHOOK_TYPES } from '../../lib/contract/webhook-types';
import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver';
import { budgetForStarting } from '../load-aware-timeouts';
import { startTestSystem, type TestSystem } from '../system-harness';
import { expectError } from './payments-fixtures';

let sys: TestSystem;
let receiver: WebhookReceiver;
beforeAll(async () => {
  sys = await startTestSystem({ env: { ACCOUNTS_BULK_IMPORT_POLL_MS: '30', WEBHOOK_POLL_INTERVAL_MS: '20' } });
  receiver = await startWebhookReceiver({ publicKeyPem: (await sys.api('/webhooks/public-key')).body.publicKeyPem });
  expect((await sys.api('/config', { method: 'PATCH', json: { webhookEndpoint: receiver.url } })).status).toBe(200);
});
afterAll(async () => {
  await sys.stop();
  await receiver.close();
});

const HEADER = 'umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,'
  + 'country,email,businessLegalName,businessTaxId,businessIncorporatedOn';

export function csvUpload(s: TestSystem, csv: string) {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'customers.csv');
  return s.api('/customers/bulk/csv', { method: 'POST', body: form });
}

async function jobWhen(s: TestSystem, id: string, done: (j: any) => boolean, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await s.api(`/customers/bulk/jobs/${id}`);
    if (done(res.body)) return res.body;
    if (Date.now() > deadline) throw new Error(`job stayed ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 30));
  }
}

test('a CSV becomes customers in a worker; failing rows are listed with their errors, others go on', async () => {
  const p = `bulk-${Date.now()}`;
  const csv = [
    HEADER,
    `$ann.${p}@uma.test,${p}-1,INDIVIDUAL,Ann One,1990-01-15,1 Main St,Austin,TX,78701,US,ann@example.com,,,`,
    `bob.${p}@uma.test,${p}-2,INDIVIDUAL,Bob Two,1991-02-16,2 Main St,Austin,TX,78701,US,,,,`,
    `,${p}-3,BUSINESS,,,400 Commerce Way,Austin,TX,78701,US,,Acme ${p},47-1234567,2018-03-14`,
    `,${p}-4,INDIVIDUAL,No Birthdate,,4 Main St,Austin,TX,78701,US,,,,`,
    `,${p}-5,INDIVIDUAL,Bad Email,1992-03-17,5 Main St,Austin,TX,78701,US,not-an-email,,,`,
    `,${p}-1,INDIVIDUAL,Duplicate Ann,1990-01-15,1 Main St,Austin,TX,78701,US,,,,`,
  ].join('\n');
  const res = await csvUpload(sys, csv);
  expect(res.status).toBe(202);
  expect(res.body.jobId).toMatch(/^BulkUploadJob:/);
  expect(['PENDING', 'PROCESSING']).toContain(res.body.status);

  const job = await jobWhen(sys, res.body.jobId, (j) => j.status === 'COMPLETED' || j.status === 'FAILED');
  expect(job).toMatchObject({
    id: res.body.jobId,
    status: 'COMPLETED',
    progress: { total: 6, processed: 6, successful: 3, failed: 3 },
  });
  expect(Date.parse(job.completedAt)).not.toBeNaN();
  expect(job.errors).toEqual([
    {
      correlationId: `${p}-4`,
      code: 'INVALID_INPUT',
      message: 'Invalid row',
      details: { errors: [{ field: 'birthDate', message: 'is required' }] },
    },
    {
      correlationId: `${p}-5`,
      code: 'INVALID_INPUT',
      message: expect.any(String),
      details: { errors: [expect.objectContaining({ field: 'email' })] },
    },
    { correlationId: `${p}-1`, code: 'CONFLICT', message: expect.any(String) },
  ]);
  const ann = (await sys.api(`/customers?platformCustomerId=${p}-1`)).body.data[0];
  expect(ann).toMatchObject({
    fullName: 'Ann One',
    umaAddress: `$ann.${p}@uma.test`,
    email: 'ann@example.com',
    address: { line1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
  });
  expect((await sys.api(`/customers?platformCustomerId=${p}-2`)).body.data[0].umaAddress).toBe(`$bob.${p}@uma.test`);
  expect((await sys.api(`/customers?platformCustomerId=${p}-3`)).body.data[0]).toMatchObject({
    customerType: 'BUSINESS',
    businessInfo: { legalName: `Acme ${p}`, taxId: '47-1234567' },
  });

  await receiver.waitFor(() =>
    receiver.accepted.some((w) => w.type === 'BULK_UPLOAD.COMPLETED' && w.data.id === job.id)
  );
  const hook = receiver.accepted.find((w) => w.type === 'BULK_UPLOAD.COMPLETED' && w.data.id === job.id)!;
  expect(hook.data).toEqual(job);
  // By default only the reference's types: the import's customers and accounts make no CUSTOMER.CREATED or
  // INTERNAL_ACCOUNT.CREATED.
  expect(receiver.arrivals.filter((w) => !(REFERENCE_WEBHOOK_TYPES as readonly string[]).includes(w.type))).toEqual([]);
  const deliveries = (await sys.api('/webhooks/deliveries?limit=100')).body.data as { type: string }[];
  expect(deliveries.filter((d) => !(REFERENCE_WEBHOOK_TYPES as readonly string[]).includes(d.type))).toEqual([]);
});

test(
  'a row is checked against the same CustomerCreateRequest schema '
    + 'as POST /customers: every invalid member listed, in its words',
  async () => {
    const p = `shape-${Date.now()}`;
    const row = `,${p}-1,INDIVIDUAL,Ann Bad,1990-02-30,1 Main St,Austin,TX,78701,USA,not-an-email,,,`;
    const job = await jobWhen(
      sys,
      (await csvUpload(sys, [HEADER, row].join('\n'))).body.jobId,
      (j) => j.status === 'FAILED',
    );
    const body = {
      customerType: 'INDIVIDUAL',
      platformCustomerId: `${p}-2`,
      fullName: 'Ann Bad',
      birthDate: '1990-02-30',
      email: 'not-an-email',
      address: { line1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '78701', country: 'USA' },
    };
    const rest = await sys.api('/customers', { method: 'POST', json: body });
    expect(rest.status).toBe(400);
    const restErrors = rest.body.details.errors.map(({ field, message }: { field: string; message: string }) => ({
      field,
      message,
    }));
    expect(restErrors.map((e: { field: string }) => e.field)).toEqual(['email', 'address.country', 'birthDate']);
    expect(job.errors).toEqual([{
      correlationId: `${p}-1`,
      code: 'INVALID_INPUT',
      message: 'Invalid request',
      details: { errors: restErrors },
    }]);
  },
);

test('a platform opted into CUSTOMER.CREATED gets one per imported customer, described by our document', async () => {
  const optIn = await sys.api('/config', { method: 'PATCH', json: { webhookExtensionTypes: ['CUSTOMER.CREATED'] } });
  expect(optIn.status).toBe(200);
  expect(optIn.body.webhookExtensionTypes).toEqual(['CUSTOMER.CREATED']);
  const p = `optin-${Date.now()}`;
  const rows = [1, 2, 3].map((i) =>
    `,${p}-${i},INDIVIDUAL,Person ${i},1990-01-1${i},${i} Main St,Austin,TX,78701,US,,,,`
  );
  const res = await csvUpload(sys, [HEADER, ...rows].join('\n'));
  const job = await jobWhen(sys, res.body.jobId, (j) => j.status === 'COMPLETED');
  await receiver.waitFor(() =>
    receiver.accepted.some((w) => w.type === 'BULK_UPLOAD.COMPLETED' && w.data.id === job.id)
  );
  const created = () =>
    receiver.accepted.filter((w) => w.type === 'CUSTOMER.CREATED' && String(w.data.platformCustomerId).startsWith(p));
  await receiver.waitFor(() => created().length === 3);
  expect(receiver.accepted.filter((w) => w.type === 'INTERNAL_ACCOUNT.CREATED')).toEqual([]);
  expect(
    (await sys.api('/config', { method: 'PATCH', json: { webhookExtensionTypes: [] } })).body.webhookExtensionTypes,
  ).toBeUndefined();
});

test('a file that is no importable CSV fails the job (BULK_UPLOAD.FAILED); no file 400; unknown job 404', async () => {
  const res = await csvUpload(sys, 'name,age\nann,3\n');
  expect(res.status).toBe(202);
  const job = await jobWhen(sys, res.body.jobId, (j) => j.status === 'FAILED');
  expect(job.progress).toEqual({ total: 0, processed: 0, successful: 0, failed: 0 });
  expect(job.errors).toEqual([{
    correlationId: 'file',
    code: 'INVALID_INPUT',
    message: 'The header lacks required columns: platformCustomerId, customerType',
    details: {
      errors: [{ field: 'platformCustomerId', message: 'column is required' }, {
        field: 'customerType',
        message: 'column is required',
      }],
    },
  }]);
  await receiver.waitFor(() => receiver.accepted.some((w) => w.type === 'BULK_UPLOAD.FAILED' && w.data.id === job.id));

  const noFile = new FormData();
  noFile.append('note', 'nothing');
  expectError(await sys.api('/customers/bulk/csv', { method: 'POST', body: noFile }), 400, 'INVALID_INPUT');
  expectError(
    await sys.api('/customers/bulk/jobs/BulkUploadJob:00000000-0000-4000-8000-000000000000'),
    404,
    'BULK_UPLOAD_JOB_NOT_FOUND',
  );
  const other = await sys.createPlatform();
  expectError(await sys.api(`/customers/bulk/jobs/${job.id}`, { auth: other.auth }), 404, 'BULK_UPLOAD_JOB_NOT_FOUND');
});

test('a job accepted before a restart is carried out after it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'grid-bulk-'));
  // Only what an import needs: the gateway, auth (credentials) and accounts (the job and its worker).
  const components = ['gateway', 'auth', 'accounts'] as const;
  try {
    // A worker that does not get to run before the stop.
    let s = await startTestSystem({
      env: { DATA_DIR: dir, ACCOUNTS_BULK_IMPORT_POLL_MS: '60000' },
      components: [...components],
    });
    const rows = Array.from(
      { length: 5 },
      (_, i) => `,restart-${i},INDIVIDUAL,Person ${i},1990-01-0${i + 1},${i} Main St,Austin,TX,78701,US,,,,`,
    );
    const res = await csvUpload(s, [HEADER, ...rows].join('\n'));
    expect(res.status).toBe(202);
    expect((await s.api(`/customers/bulk/jobs/${res.body.jobId}`)).body).toMatchObject({
      status: 'PENDING',
      progress: { total: 5, processed: 0 },
    });
    await s.stop();
    s = await startTestSystem({
      env: { DATA_DIR: dir, ACCOUNTS_BULK_IMPORT_POLL_MS: '30' },
      components: [...components],
    });
    try {
      const job = await jobWhen(s, res.body.jobId, (j) => j.status === 'COMPLETED');
      expect(job.progress).toEqual({ total: 5, processed: 5, successful: 5, failed: 0 });
    } finally {
      await s.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, budgetForStarting(2));

test(
  'formula cells (=, @, +, -, tab or CR first) are stored '
    + 'as text with a leading quote, so an export cannot run them',
  async () => {
    const p = `formula-${Date.now()}`;
    const csv = [
      HEADER,
      `,${p}-1,INDIVIDUAL,"=cmd|' /C calc'!A0",1990-01-15,`
      + `"\t@HYPERLINK(""http://evil.example"")",Austin,TX,78701,US,,,,`,
      `,${p}-2,INDIVIDUAL,Ann Plain,1990-01-15,"-2+3+cmd|' /C calc'!A0",Austin,TX,78701,US,,,,`,
    ].join('\n');
    const res = await csvUpload(sys, csv);
    expect(res.status).toBe(202);
    const job = await jobWhen(sys, res.body.jobId, (j) => j.status === 'COMPLETED' || j.status === 'FAILED');
    expect(job.progress).toMatchObject({ successful: 2, failed: 0 });
    const stored = async (id: string) => (await sys.api(`/customers?platformCustomerId=${id}`)).body.data[0];
    expect(await stored(`${p}-1`)).toMatchObject({
      fullName: "'=cmd|' /C calc'!A0",
      address: { line1: '\'@HYPERLINK("http://evil.example")' },
    });
    expect(await stored(`${p}-2`)).toMatchObject({
      fullName: 'Ann Plain',
      address: { line1: "'-2+3+cmd|' /C calc'!A0" },
    });
  },
);
