import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver';
import { startTestSystem, type TestSystem } from '../system-harness';
import { chooseOutcome, createCustomer, verificationWhen, webhookTypesOf } from './kyc-fixtures';
import { expectError } from './payments-fixtures';

const PDF = Buffer.from('%PDF-1.7\n%%EOF\n');
async function uploadDocument(holder: string, documentType: string) {
  const form = new FormData();
  for (const [k, v] of Object.entries({ documentHolder: holder, documentType, country: 'US' })) form.append(k, v);
  form.append('file', new Blob([PDF], { type: 'application/pdf' }), `${documentType.toLowerCase()}.pdf`);
  const res = await sys.api('/documents', { method: 'POST', body: form });
  expect(res.status).toBe(201);
}

let sys: TestSystem;
let receiver: WebhookReceiver;

beforeAll(async () => {
  sys = await startTestSystem({ env: { ACCOUNTS_KYC_STEP_MS: '50', WEBHOOK_POLL_INTERVAL_MS: '20' } });
  receiver = await startWebhookReceiver({ publicKeyPem: (await sys.api('/webhooks/public-key')).body.publicKeyPem });
  expect((await sys.api('/config', { method: 'PATCH', json: { webhookEndpoint: receiver.url } })).status).toBe(200);
});
afterAll(async () => {
  await sys.stop();
  await receiver.close();
});

const business = (legalName = 'Acme Corp') =>
  createCustomer(sys, {
    customerType: 'BUSINESS',
    businessInfo: { legalName, country: 'US', taxId: '47-1234567', incorporatedOn: '2018-03-14' },
  });

const PERSON = {
  firstName: 'Jane',
  lastName: 'Owner',
  birthDate: '1980-02-03',
  nationality: 'US',
  idType: 'SSN',
  identifier: '123-45-6789',
  address: { line1: '1 Main St', city: 'Austin', postalCode: '78701', country: 'US' },
};
const PERSON_READ = { ...PERSON, identifier: '*******6789' };

test('a business customer gets owners with their own KYC status; the identification number comes masked', async () => {
  const biz = await business();
  const res = await sys.api('/beneficial-owners', {
    method: 'POST',
    json: { customerId: biz.id, roles: ['UBO', 'CONTROL_PERSON'], ownershipPercentage: 60, personalInfo: PERSON },
  });
  expect(res.status).toBe(201);
  expect(res.body).toMatchObject({
    customerId: biz.id,
    roles: ['UBO', 'CONTROL_PERSON'],
    ownershipPercentage: 60,
    kycStatus: 'UNVERIFIED',
  });
  expect(res.body.id).toMatch(/^BeneficialOwner:/);
  expect(res.body.personalInfo).toEqual(PERSON_READ);
  expect(JSON.stringify(res.body)).not.toContain('123-45-6789');

  expect((await sys.api(`/beneficial-owners/${res.body.id}`)).body).toEqual(res.body);
  const list = await sys.api(`/beneficial-owners?customerId=${biz.id}`);
  expect(list.body).toMatchObject({ data: [res.body], hasMore: false, totalCount: 1 });

  const patched = await sys.api(`/beneficial-owners/${res.body.id}`, {
    method: 'PATCH',
    json: { ownershipPercentage: 40, personalInfo: { middleName: 'Q' } },
  });
  expect(patched.status).toBe(200);
  expect(patched.body).toMatchObject({ ownershipPercentage: 40, personalInfo: { ...PERSON_READ, middleName: 'Q' } });
  const renumbered = await sys.api(`/beneficial-owners/${res.body.id}`, {
    method: 'PATCH',
    json: { personalInfo: { identifier: 'P1234' } },
  });
  expect(renumbered.body.personalInfo.identifier).toBe('*****');
});

test('a business customer embeds its beneficial owners (masked identifier) wherever the customer shows', async () => {
  const biz = await business('Embedding Inc');
  expect(biz.beneficialOwners).toEqual([]);
  const owner = (await sys.api('/beneficial-owners', {
    method: 'POST',
    json: { customerId: biz.id, roles: ['UBO'], ownershipPercentage: 100, personalInfo: PERSON },
  })).body;
  const read = await sys.api(`/customers/${biz.id}`);
  expect(read.body.beneficialOwners).toEqual([owner]);
  expect(read.body.beneficialOwners[0].personalInfo.identifier).toBe('*******6789');
  const listed = await sys.api('/customers?customerType=BUSINESS&limit=100');
  expect(listed.body.data.find((c: { id: string }) => c.id === biz.id).beneficialOwners).toEqual([owner]);
  const patched = await sys.api(`/customers/${biz.id}`, {
    method: 'PATCH',
    json: { customerType: 'BUSINESS', businessInfo: { doingBusinessAs: 'Embedding' } },
  });
  expect(patched.body.beneficialOwners).toEqual([owner]);
  const individual = await createCustomer(sys, { customerType: 'INDIVIDUAL' });
  expect((await sys.api(`/customers/${individual.id}`)).body).not.toHaveProperty('beneficialOwners');
});

test('bad input is listed field by field; an individual customer cannot have owners; unknown ids are 404', async () => {
  const biz = await business();
  const bad = await sys.api('/beneficial-owners', {
    method: 'POST',
    json: {
      customerId: biz.id,
      roles: ['OWNER'],
      ownershipPercentage: 120,
      personalInfo: { ...PERSON, birthDate: 'yesterday', nationality: 'usa', identifier: undefined },
    },
  });
  expectError(bad, 400, 'INVALID_INPUT');
  expect(bad.body.details.errors.map((e: any) => e.field).sort()).toEqual(
    ['ownershipPercentage', 'personalInfo.birthDate', 'personalInfo.identifier', 'personalInfo.nationality', 'roles[0]']
      .sort(),
  );
  const person = await createCustomer(sys, { fullName: 'Not A Business' });
  const wrong = await sys.api('/beneficial-owners', {
    method: 'POST',
    json: { customerId: person.id, roles: ['UBO'], ownershipPercentage: 30, personalInfo: PERSON },
  });
  expectError(wrong, 400, 'INVALID_INPUT');
  expect(wrong.body.details.errors.map((e: any) => e.field)).toEqual(['customerId']);
  expectError(
    await sys.api('/beneficial-owners', {
      method: 'POST',
      json: {
        customerId: 'Customer:00000000-0000-4000-8000-000000000000',
        roles: ['UBO'],
        ownershipPercentage: 30,
        personalInfo: PERSON,
      },
    }),
    404,
    'USER_NOT_FOUND',
  );
  expectError(
    await sys.api('/beneficial-owners/BeneficialOwner:00000000-0000-4000-8000-000000000000'),
    404,
    'REFERENCE_NOT_FOUND',
  );
});

test(
  'KYB lists what the business and each owner still lack; the '
    + 'owners follow the business to APPROVED (CUSTOMER.KYB_* webhooks)',
  async () => {
    const biz = await business('Owned Co');
    const owner = await sys.api('/beneficial-owners', {
      method: 'POST',
      json: { customerId: biz.id, roles: ['UBO'], ownershipPercentage: 80, personalInfo: PERSON },
    });
    const submitted = await sys.api('/verifications', { method: 'POST', json: { customerId: biz.id } });
    expect(submitted.body.verificationStatus).toBe('RESOLVE_ERRORS');
    const problems = submitted.body.errors.map((
      e: any,
    ) => [e.resourceId, e.type, e.field ?? e.acceptedDocumentTypes?.join('|') ?? null]);
    expect(problems).toEqual([
      [biz.id, 'MISSING_FIELD', 'customer.businessInfo.countriesOfOperation'],
      [biz.id, 'MISSING_FIELD', 'customer.address.line1'],
      [biz.id, 'MISSING_FIELD', 'customer.address.city'],
      [biz.id, 'MISSING_FIELD', 'customer.address.postalCode'],
      [biz.id, 'MISSING_FIELD', 'customer.address.country'],
      [biz.id, 'MISSING_CONTROL_PERSON', null],
      [
        biz.id,
        'MISSING_LEGAL_PRESENCE_DOCUMENT',
        'CERTIFICATE_OF_INCORPORATION|ARTICLES_OF_INCORPORATION|ARTICLES_OF_ASSOCIATION|STATE_REGISTRY_EXCERPT',
      ],
      [
        biz.id,
        'MISSING_PROOF_OF_ADDRESS_DOCUMENT',
        'UTILITY_BILL|RENT_OR_LEASE_AGREEMENT|ELECTRICITY_BILL|BANK_STATEMENT|TAX_RETURN|PROOF_OF_ADDRESS',
      ],
      [biz.id, 'MISSING_OWNERSHIP_STRUCTURE_DOCUMENT', 'SHAREHOLDER_REGISTER|TRUST_AGREEMENT|PARTNERSHIP_AGREEMENT'],
      [owner.body.id, 'MISSING_IDENTITY_DOCUMENT', 'PASSPORT|DRIVERS_LICENSE|NATIONAL_ID'],
    ]);

    const link = await sys.api(`/customers/${biz.id}/kyc-link`, { method: 'POST' });
    expect(await (await fetch(`${sys.rootUrl}${new URL(link.body.kycUrl).pathname}`)).text()).toContain('(KYB)');
    await chooseOutcome(sys, link.body.kycUrl, 'APPROVE');
    await verificationWhen(sys, submitted.body.id, (v) => v.verificationStatus === 'APPROVED');
    await receiver.waitFor(() => webhookTypesOf(receiver, biz.id, 'CUSTOMER.KYB_').length >= 2);
    expect(webhookTypesOf(receiver, biz.id, 'CUSTOMER.KYB_')).toEqual([
      'CUSTOMER.KYB_PENDING',
      'CUSTOMER.KYB_APPROVED',
    ]);
    const read = (await sys.api(`/customers/${biz.id}`)).body;
    expect(read.kybStatus).toBe('APPROVED');
    // The webhook carries the customer as GET renders it: the business with its owners, identifiers masked.
    const approved = receiver.accepted.find((w) => w.type === 'CUSTOMER.KYB_APPROVED' && w.data.id === biz.id)!;
    expect(approved.data).toEqual(read);
    expect(approved.data.beneficialOwners).toEqual([
      expect.objectContaining({ id: owner.body.id, personalInfo: PERSON_READ }),
    ]);
    const pending = receiver.accepted.find((w) => w.type === 'CUSTOMER.KYB_PENDING' && w.data.id === biz.id)!;
    expect(pending.data).toMatchObject({
      kybStatus: 'PENDING',
      businessInfo: read.businessInfo,
      beneficialOwners: [expect.objectContaining({ id: owner.body.id })],
    });
    expect(receiver.raw.some((r) => r.body.includes('123-45-6789'))).toBe(false);
    expect(receiver.contractProblems).toEqual([]);
    expect((await sys.api(`/beneficial-owners/${owner.body.id}`)).body.kycStatus).toBe('APPROVED');
  },
);

test('each owner is screened on its own: a flagged owner is REJECTED with its business, others APPROVED', async () => {
  const biz = await createCustomer(sys, {
    customerType: 'BUSINESS',
    address: { line1: '400 Commerce Way', city: 'Austin', postalCode: '78701', country: 'US' },
    businessInfo: {
      legalName: 'Screened Co',
      country: 'US',
      taxId: '47-7654321',
      incorporatedOn: '2018-03-14',
      countriesOfOperation: ['US'],
    },
  });
  const clean = (await sys.api('/beneficial-owners', {
    method: 'POST',
    json: { customerId: biz.id, roles: ['CONTROL_PERSON', 'UBO'], ownershipPercentage: 60, personalInfo: PERSON },
  })).body;
  const flagged = (await sys.api('/beneficial-owners', {
    method: 'POST',
    json: {
      customerId: biz.id,
      roles: ['UBO'],
      ownershipPercentage: 40,
      personalInfo: { ...PERSON, firstName: 'Sandbox', lastName: 'KYC Reject' },
    },
  })).body;
  for (const type of ['CERTIFICATE_OF_INCORPORATION', 'UTILITY_BILL', 'SHAREHOLDER_REGISTER']) {
    await uploadDocument(biz.id, type);
  }
  for (const owner of [clean, flagged]) await uploadDocument(owner.id, 'PASSPORT');

  const submitted = await sys.api('/verifications', { method: 'POST', json: { customerId: biz.id } });
  expect(submitted.body).toMatchObject({ verificationStatus: 'IN_PROGRESS', errors: [] });
  const rejected = await verificationWhen(sys, submitted.body.id, (v) => v.verificationStatus === 'REJECTED');
  expect(rejected.errors).toEqual([{
    resourceId: flagged.id,
    type: 'APPLICANT_REJECTED',
    reason: 'A beneficial owner did not pass screening',
  }]);
  expect((await sys.api(`/customers/${biz.id}`)).body.kybStatus).toBe('REJECTED');
  expect((await sys.api(`/beneficial-owners/${flagged.id}`)).body.kycStatus).toBe('REJECTED');
  expect((await sys.api(`/beneficial-owners/${clean.id}`)).body.kycStatus).toBe('APPROVED');
  await receiver.waitFor(() => webhookTypesOf(receiver, biz.id, 'CUSTOMER.KYB_').includes('CUSTOMER.KYB_REJECTED'));
});
