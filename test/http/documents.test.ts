import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basicAuthHeader, startTestSystem, type TestSystem } from '../system-harness';
import { createCustomer, verificationWhen } from './kyc-fixtures';
import { expectError } from './payments-fixtures';

const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2048, 7), Buffer.from('\n%%EOF\n')]);
/** A whole 1×1 PNG image (IHDR … IEND). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const MAX_BYTES = 10 * 1024 * 1024;
/** A whole PDF of exactly `size` bytes. */
const pdfOfSize = (size: number) =>
  Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(size - 9 - 7, 0x20), Buffer.from('\n%%EOF\n')]);

let sys: TestSystem;
beforeAll(async () => {
  sys = await startTestSystem({ env: { ACCOUNTS_KYC_STEP_MS: '40' } });
});
afterAll(() => sys.stop());

function form(fields: Record<string, string>, file?: { name: string; content: Buffer; type?: string }): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  if (file) f.append('file', new Blob([file.content], { type: file.type ?? 'application/pdf' }), file.name);
  return f;
}

const upload = (fields: Record<string, string>, file?: { name: string; content: Buffer; type?: string }, s = sys) =>
  s.api('/documents', { method: 'POST', body: form(fields, file) });

async function fileOf(id: string, auth?: string, s = sys) {
  const res = await fetch(`${s.baseUrl}/documents/${id}/file`, {
    headers: { authorization: auth ?? basicAuthHeader(s.sandbox.tokenId, s.sandbox.clientSecret) },
  });
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

test('a PDF uploaded for a customer is listed by holder; its file is served as is, to its platform only', async () => {
  const customer = await createCustomer(sys, { fullName: 'Doc Holder' });
  const res = await upload({
    documentHolder: customer.id,
    documentType: 'PASSPORT',
    country: 'US',
    documentNumber: 'A1234567',
    side: 'FRONT',
  }, { name: 'passport.pdf', content: PDF });
  expect(res.status).toBe(201);
  expect(res.body).toMatchObject({
    documentHolder: customer.id,
    documentType: 'PASSPORT',
    country: 'US',
    documentNumber: 'A1234567',
    side: 'FRONT',
    fileName: 'passport.pdf',
  });
  expect((await sys.api(`/documents/${res.body.id}`)).body).toEqual(res.body);
  const list = await sys.api(`/documents?documentHolder=${customer.id}`);
  expect(list.body).toMatchObject({ data: [res.body], totalCount: 1, hasMore: false });
  expect(await fileOf(res.body.id)).toEqual({ status: 200, type: 'application/pdf', bytes: PDF });

  const other = await sys.createPlatform();
  expectError(await sys.api(`/documents/${res.body.id}`, { auth: other.auth }), 404, 'REFERENCE_NOT_FOUND');
  expect((await fileOf(res.body.id, other.auth)).status).toBe(404);
  expect((await sys.api(`/documents?documentHolder=${customer.id}`, { auth: other.auth })).body.data).toEqual([]);
});

test('bad metadata is listed field by field; the type comes from the bytes, not the name or declared one', async () => {
  const customer = await createCustomer(sys);
  const bad = await upload({ documentHolder: 'Customer:nope', documentType: 'DIPLOMA', country: 'USA', side: 'TOP' }, {
    name: 'x.pdf',
    content: PDF,
  });
  expectError(bad, 400, 'INVALID_INPUT');
  expect(bad.body.details.errors.map((e: any) => e.field)).toEqual([
    'documentHolder',
    'documentType',
    'side',
    'country',
  ]);
  const missing = await upload({ documentHolder: customer.id });
  expect(missing.body.details.errors.map((e: any) => e.field)).toEqual(['documentType', 'country', 'file']);
  const disguised = await upload({ documentHolder: customer.id, documentType: 'PASSPORT', country: 'US' }, {
    name: 'passport.pdf',
    content: Buffer.from('MZ\x90\x00 not a pdf'),
    type: 'application/pdf',
  });
  expectError(disguised, 400, 'INVALID_INPUT');
  expect(disguised.body.details.errors).toEqual([{
    field: 'file',
    message: 'must be a PDF, JPEG or PNG file (checked from its content)',
  }]);
  // A PNG declared as a PDF is a PNG.
  expect(
    (await upload({ documentHolder: customer.id, documentType: 'SELFIE', country: 'US' }, {
      name: 'me.pdf',
      content: PNG,
    })).status,
  ).toBe(201);
  expectError(
    await upload({
      documentHolder: 'Customer:00000000-0000-4000-8000-000000000000',
      documentType: 'PASSPORT',
      country: 'US',
    }, { name: 'p.pdf', content: PDF }),
    404,
    'USER_NOT_FOUND',
  );
  const json = await sys.api('/documents', { method: 'POST', json: { documentHolder: customer.id } });
  expectError(json, 400, 'INVALID_INPUT');
});

test('the 10 MB limit is inclusive: exactly 10,485,760 bytes is stored, one byte more is refused', async () => {
  const customer = await createCustomer(sys);
  const exact = await upload({ documentHolder: customer.id, documentType: 'PASSPORT', country: 'US' }, {
    name: 'exact.pdf',
    content: pdfOfSize(MAX_BYTES),
  });
  expect(exact.status).toBe(201);
  expect((await fileOf(exact.body.id)).bytes.length).toBe(MAX_BYTES);
  const over = await upload({ documentHolder: customer.id, documentType: 'PASSPORT', country: 'US' }, {
    name: 'over.pdf',
    content: pdfOfSize(MAX_BYTES + 1),
  });
  expectError(over, 400, 'INVALID_INPUT');
  expect(over.body.details.errors).toEqual([{ field: 'file', message: 'must be at most 10 MB' }]);
  expect((await sys.api(`/documents?documentHolder=${customer.id}`)).body.totalCount).toBe(1);
});

test.each([
  ['an 8-byte PNG header', PNG.subarray(0, 8), 'is not a complete PNG image (IHDR or IEND chunk missing)'],
  ['a PNG cut short', PNG.subarray(0, PNG.length - 5), 'is not a complete PNG image (IHDR or IEND chunk missing)'],
  [
    'a JPEG without its end-of-image marker',
    Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]),
    'is not a complete JPEG image (end-of-image marker missing)',
  ],
  ['a PDF cut short', PDF.subarray(0, 1000), 'is not a complete PDF file (%%EOF missing)'],
])('%s is 400 and not stored', async (_what, content, message) => {
  const customer = await createCustomer(sys);
  const res = await upload({ documentHolder: customer.id, documentType: 'PASSPORT', country: 'US' }, {
    name: 'cut.png',
    content,
  });
  expectError(res, 400, 'INVALID_INPUT');
  expect(res.body.details.errors).toEqual([{ field: 'file', message }]);
  expect((await sys.api(`/documents?documentHolder=${customer.id}`)).body.totalCount).toBe(0);
});

test('oversized and truncated uploads are 400 and leave nothing stored', async () => {
  const customer = await createCustomer(sys);
  const big = Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024)]);
  const res = await upload({ documentHolder: customer.id, documentType: 'PASSPORT', country: 'US' }, {
    name: 'big.pdf',
    content: big,
  });
  expectError(res, 400, 'INVALID_INPUT');
  expect(res.body.details.errors).toEqual([{ field: 'file', message: 'must be at most 10 MB' }]);

  const boundary = 'XyZ123';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="documentHolder"\r\n\r\n${customer.id}\r\n`
    + `--${boundary}\r\nContent-Disposition: form-data; name="documentType"\r\n\r\nPASSPORT\r\n`
    + `--${boundary}\r\nContent-Disposition: form-data; name="country"\r\n\r\nUS\r\n`
    + `--${boundary}\r\nContent-Disposition: form-data; name="file"; `
    + `filename="cut.pdf"\r\nContent-Type: application/pdf\r\n\r\n`;
  const truncated = Buffer.concat([Buffer.from(head), PDF.subarray(0, 1000)]); // no closing boundary
  const answer = await new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = request(`${sys.baseUrl}/documents`, {
      method: 'POST',
      headers: {
        authorization: basicAuthHeader(sys.sandbox.tokenId, sys.sandbox.clientSecret),
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': truncated.length,
      },
    }, (r) => {
      let text = '';
      r.on('data', (c) => (text += c));
      r.on('end', () => resolve({ status: r.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(truncated);
  });
  expectError(answer, 400, 'INVALID_INPUT');
  expect((await sys.api(`/documents?documentHolder=${customer.id}`)).body.totalCount).toBe(0);
});

test.each(['LOW_QUALITY', 'DATA_MISMATCH', 'EXPIRED', 'SUSPECTED_FRAUD', 'UNSUITABLE_DOCUMENT', 'INCOMPLETE'])(
  'sandbox: a file named %s.pdf is refused with that reason and not stored',
  async (reason) => {
    const customer = await createCustomer(sys);
    expectError(
      await upload({ documentHolder: customer.id, documentType: 'PASSPORT', country: 'US' }, {
        name: `${reason.toLowerCase()}.pdf`,
        content: PDF,
      }),
      400,
      reason,
    );
    expect((await sys.api(`/documents?documentHolder=${customer.id}`)).body.totalCount).toBe(0);
  },
);

test('PUT replaces the file and metadata given; DELETE removes document and file', async () => {
  const customer = await createCustomer(sys);
  const doc =
    (await upload({ documentHolder: customer.id, documentType: 'DRIVERS_LICENSE', country: 'US', side: 'FRONT' }, {
      name: 'front.pdf',
      content: PDF,
    })).body;
  const replaced = await sys.api(`/documents/${doc.id}`, {
    method: 'PUT',
    body: form({ side: 'BACK' }, { name: 'back.png', content: PNG, type: 'image/png' }),
  });
  expect(replaced.status).toBe(200);
  expect(replaced.body).toMatchObject({
    id: doc.id,
    documentType: 'DRIVERS_LICENSE',
    side: 'BACK',
    fileName: 'back.png',
  });
  expect(await fileOf(doc.id)).toEqual({ status: 200, type: 'image/png', bytes: PNG });
  expect((await sys.api(`/documents/${doc.id}`, { method: 'DELETE' })).status).toBe(204);
  expectError(await sys.api(`/documents/${doc.id}`), 404, 'REFERENCE_NOT_FOUND');
  expect((await fileOf(doc.id)).status).toBe(404);
});

test('with documents in place, an API submission goes to the provider: IN_PROGRESS then APPROVED', async () => {
  const customer = await createCustomer(sys, {
    fullName: 'Complete Person',
    birthDate: '1985-04-05',
    nationality: 'MX',
    address: { line1: 'Av. Reforma 1', city: 'CDMX', postalCode: '06600', country: 'MX' },
  });
  const first = await sys.api('/verifications', { method: 'POST', json: { customerId: customer.id } });
  expect(first.body.errors.map((e: any) => e.type)).toEqual(['MISSING_IDENTITY_DOCUMENT']);
  await upload({ documentHolder: customer.id, documentType: 'PASSPORT', country: 'MX' }, {
    name: 'passport.pdf',
    content: PDF,
  });
  const second = await sys.api('/verifications', { method: 'POST', json: { customerId: customer.id } });
  expect(second.body).toMatchObject({ id: first.body.id, verificationStatus: 'IN_PROGRESS', errors: [] });
  await verificationWhen(sys, first.body.id, (v) => v.verificationStatus === 'APPROVED');
});

test('the disk storage under DATA_DIR keeps files across a restart, whole, with no partial files left', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'grid-docs-'));
  try {
    let durable = await startTestSystem({ env: { DATA_DIR: dir } });
    const customer = await createCustomer(durable);
    const doc = (await upload({ documentHolder: customer.id, documentType: 'PASSPORT', country: 'US' }, {
      name: 'p.pdf',
      content: PDF,
    }, durable)).body;
    await durable.stop();
    durable = await startTestSystem({ env: { DATA_DIR: dir } });
    try {
      expect(await fileOf(doc.id, undefined, durable)).toEqual({ status: 200, type: 'application/pdf', bytes: PDF });
      const files = readdirSync(join(dir, 'documents'), { recursive: true }).map(String);
      expect(files.some((f) => f.endsWith('.partial'))).toBe(false);
      expect(files.filter((f) => f.includes(doc.id.slice('Document:'.length)))).toHaveLength(1);
    } finally {
      await durable.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 180_000); // two system starts on disk: slow on a busy machine

test('the onboarding walk of docs/api/onboarding.md, request for request', async () => {
  const created = await sys.api('/customers', {
    method: 'POST',
    json: {
      customerType: 'INDIVIDUAL',
      platformCustomerId: `kyc-1-${Date.now()}`,
      fullName: 'Ana Ruiz',
      birthDate: '1990-01-15',
      nationality: 'MX',
      address: { line1: 'Av. Reforma 1', city: 'CDMX', postalCode: '06600', country: 'MX' },
    },
  });
  const c = created.body.id;
  const missing = await sys.api('/verifications', { method: 'POST', json: { customerId: c } });
  expect(missing.body).toMatchObject({
    verificationStatus: 'RESOLVE_ERRORS',
    errors: [{ type: 'MISSING_IDENTITY_DOCUMENT' }],
  });
  expect(
    (await upload({ documentHolder: c, documentType: 'PASSPORT', country: 'MX' }, {
      name: 'passport.pdf',
      content: PDF,
    })).status,
  ).toBe(201);
  const resubmitted = await sys.api('/verifications', { method: 'POST', json: { customerId: c } });
  expect(resubmitted.body.verificationStatus).toBe('IN_PROGRESS');
  await verificationWhen(sys, resubmitted.body.id, (v) => v.verificationStatus === 'APPROVED');
  const link = await sys.api(`/customers/${c}/kyc-link`, {
    method: 'POST',
    json: { redirectUri: 'https://app.example.com/done' },
  });
  expect(link.status).toBe(201);
  expect(Object.keys(link.body).sort()).toEqual(['expiresAt', 'kycUrl', 'provider', 'token']);
  const sdkForm = await sys.api(`/customers/kyc-link?platformCustomerId=${created.body.platformCustomerId}`);
  expect(sdkForm.body.customerId).toBe(c);
});
