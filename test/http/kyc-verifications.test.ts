import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver';
import { startTestSystem, type TestSystem } from '../system-harness';
import { chooseOutcome, createCustomer, hostedPath, verificationWhen, webhookTypesOf } from './kyc-fixtures';
import { accountQuote, expectError, externalAccount, fund, payingCustomer } from './payments-fixtures';

let sys: TestSystem;
let receiver: WebhookReceiver;

beforeAll(async () => {
  sys = await startTestSystem({ env: { ACCOUNTS_KYC_STEP_MS: '60', WEBHOOK_POLL_INTERVAL_MS: '20' } });
  receiver = await startWebhookReceiver({ publicKeyPem: (await sys.api('/webhooks/public-key')).body.publicKeyPem });
  expect((await sys.api('/config', { method: 'PATCH', json: { webhookEndpoint: receiver.url } })).status).toBe(200);
});
afterAll(async () => {
  await sys.stop();
  await receiver.close();
});

const customerWhen = async (id: string, status: string) => {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await sys.api(`/customers/${id}`);
    if (res.body.kycStatus === status || res.body.kybStatus === status) return res.body;
    if (Date.now() > deadline) throw new Error(`customer ${id} stayed ${res.body.kycStatus ?? res.body.kybStatus}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe('POST /verifications', () => {
  test('answers RESOLVE_ERRORS listing each missing item, one entry per problem; the customer UNVERIFIED', async () => {
    const customer = await createCustomer(sys, { fullName: 'Ada Lovelace', nationality: 'US', pepStatus: 'FOREIGN' });
    const res = await sys.api('/verifications', { method: 'POST', json: { customerId: customer.id } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ customerId: customer.id, verificationStatus: 'RESOLVE_ERRORS' });
    expect(res.body.id).toMatch(/^Verification:/);
    expect(res.body.errors).toEqual([
      {
        resourceId: customer.id,
        type: 'MISSING_FIELD',
        field: 'customer.birthDate',
        reason: 'Date of birth is required',
      },
      {
        resourceId: customer.id,
        type: 'MISSING_FIELD',
        field: 'customer.address.line1',
        reason: 'Residential address line 1 is required',
      },
      {
        resourceId: customer.id,
        type: 'MISSING_FIELD',
        field: 'customer.address.city',
        reason: 'Residential address city is required',
      },
      {
        resourceId: customer.id,
        type: 'MISSING_FIELD',
        field: 'customer.address.postalCode',
        reason: 'Residential address postal code is required',
      },
      {
        resourceId: customer.id,
        type: 'MISSING_FIELD',
        field: 'customer.address.country',
        reason: 'Residential address country is required',
      },
      {
        resourceId: customer.id,
        type: 'MISSING_FIELD',
        field: 'customer.identifier',
        reason: 'An SSN or ITIN is required for a US person',
      },
      {
        resourceId: customer.id,
        type: 'MISSING_FIELD',
        field: 'customer.sourceOfWealthCategories',
        reason: 'Source of wealth is required for a politically exposed person',
      },
      {
        resourceId: customer.id,
        type: 'MISSING_IDENTITY_DOCUMENT',
        acceptedDocumentTypes: ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'],
        reason: 'An identity document is required',
      },
    ]);
    expect((await sys.api(`/customers/${customer.id}`)).body.kycStatus).toBe('UNVERIFIED');
    // The status is not the platform's to set: a PATCH naming it changes nothing.
    await sys.api(`/customers/${customer.id}`, {
      method: 'PATCH',
      json: { customerType: 'INDIVIDUAL', kycStatus: 'APPROVED' },
    });
    expect((await sys.api(`/customers/${customer.id}`)).body.kycStatus).toBe('UNVERIFIED');

    // Fixing some of it and resubmitting moves the same verification on: fewer problems.
    const patched = await sys.api(`/customers/${customer.id}`, {
      method: 'PATCH',
      json: {
        customerType: 'INDIVIDUAL',
        birthDate: '1990-01-15',
        idType: 'SSN',
        identifier: '123-45-6789',
        sourceOfWealthCategories: ['SALARY'],
        address: { line1: '1 Main St', city: 'Austin', postalCode: '78701', country: 'US' },
      },
    });
    expect(patched.status).toBe(200);
    const again = await sys.api('/verifications', { method: 'POST', json: { customerId: customer.id } });
    expect(again.body.id).toBe(res.body.id);
    expect(again.body.errors.map((e: any) => e.type)).toEqual(['MISSING_IDENTITY_DOCUMENT']);
    await receiver.waitFor(() => webhookTypesOf(receiver, res.body.id, 'VERIFICATION.').length >= 2);
    expect(webhookTypesOf(receiver, res.body.id, 'VERIFICATION.')).toEqual([
      'VERIFICATION.RESOLVE_ERRORS',
      'VERIFICATION.RESOLVE_ERRORS',
    ]);
  });

  test('an unknown customer is 404 USER_NOT_FOUND; a malformed id is 400 naming customerId', async () => {
    expectError(
      await sys.api('/verifications', {
        method: 'POST',
        json: { customerId: 'Customer:00000000-0000-4000-8000-000000000000' },
      }),
      404,
      'USER_NOT_FOUND',
    );
    const bad = await sys.api('/verifications', { method: 'POST', json: { customerId: 'nope' } });
    expectError(bad, 400, 'INVALID_INPUT');
    expect(bad.body.details.errors.map((e: any) => e.field)).toEqual(['customerId']);
  });

  test('GET /verifications filters by customer and status; GET of an unknown id is 404', async () => {
    const customer = await createCustomer(sys, { fullName: 'List Me' });
    const submitted = await sys.api('/verifications', { method: 'POST', json: { customerId: customer.id } });
    const list = await sys.api(`/verifications?customerId=${customer.id}&verificationStatus=RESOLVE_ERRORS`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((v: any) => v.id)).toEqual([submitted.body.id]);
    expect((await sys.api(`/verifications?customerId=${customer.id}&verificationStatus=APPROVED`)).body.data).toEqual(
      [],
    );
    expectError(
      await sys.api('/verifications/Verification:00000000-0000-4000-8000-000000000000'),
      404,
      'REFERENCE_NOT_FOUND',
    );
  });
});

describe('hosted KYC link', () => {
  test('approve: the single-use page drives the customer PENDING then APPROVED, signed webhooks per step', async () => {
    const customer = await createCustomer(sys, { fullName: 'Hosted Approve' });
    const link = await sys.api(`/customers/${customer.id}/kyc-link`, {
      method: 'POST',
      json: { redirectUri: 'https://app.example.com/done' },
    });
    expect(link.status).toBe(201);
    expect(link.body).toMatchObject({ provider: 'SUMSUB', kycUrl: expect.stringMatching(/\/kyc\/[A-Za-z0-9_-]{43}$/) });
    expect(Date.parse(link.body.expiresAt)).toBeGreaterThan(Date.now());
    // Creating a link changes nothing on the customer.
    expect((await sys.api(`/customers/${customer.id}`)).body.kycStatus).toBe('UNVERIFIED');

    const page = await fetch(`${sys.rootUrl}${hostedPath(link.body.kycUrl)}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    for (const outcome of ['APPROVE', 'REJECT', 'MANUAL_REVIEW', 'RESOLVE_ERRORS']) {
      expect(html).toContain(`value="${outcome}"`);
    }

    const chosen = await chooseOutcome(sys, link.body.kycUrl, 'APPROVE');
    expect(chosen.status).toBe(303);
    expect(chosen.headers.get('location')).toBe('https://app.example.com/done');
    expect((await sys.api(`/customers/${customer.id}`)).body.kycStatus).toBe('PENDING');
    const [verification] = (await sys.api(`/verifications?customerId=${customer.id}`)).body.data;
    const approved = await verificationWhen(sys, verification.id, (v) => v.verificationStatus === 'APPROVED');
    expect(approved.errors).toEqual([]);
    await customerWhen(customer.id, 'APPROVED');

    // Single use: the page now says so, and a second submission changes nothing.
    expect((await fetch(`${sys.rootUrl}${hostedPath(link.body.kycUrl)}`)).status).toBe(404);
    expect((await chooseOutcome(sys, link.body.kycUrl, 'REJECT')).status).toBe(404);

    await receiver.waitFor(() =>
      webhookTypesOf(receiver, customer.id, 'CUSTOMER.KYC_').length >= 2
      && webhookTypesOf(receiver, verification.id, 'VERIFICATION.').length >= 2
    );
    // Deliveries run concurrently: like Grid's, their order is not promised (receivers go by the record's status).
    expect(webhookTypesOf(receiver, verification.id, 'VERIFICATION.').sort()).toEqual([
      'VERIFICATION.APPROVED',
      'VERIFICATION.IN_PROGRESS',
    ]);
    expect(webhookTypesOf(receiver, customer.id, 'CUSTOMER.KYC_').sort()).toEqual([
      'CUSTOMER.KYC_APPROVED',
      'CUSTOMER.KYC_PENDING',
    ]);
    const approvedHook = receiver.accepted.find((w) =>
      w.type === 'CUSTOMER.KYC_APPROVED' && w.data.id === customer.id
    )!;
    expect(approvedHook.data).toMatchObject({
      id: customer.id,
      customerType: 'INDIVIDUAL',
      kycStatus: 'APPROVED',
      platformCustomerId: customer.platformCustomerId,
    });
    // The reference's CustomerWebhook carries the customer as GET /customers/{id} answers it.
    expect(approvedHook.data).toEqual((await sys.api(`/customers/${customer.id}`)).body);
    expect(receiver.refused).toBe(0);
  });

  test('manual review: IN_PROGRESS, then PENDING_MANUAL_REVIEW (customer still PENDING), then APPROVED', async () => {
    const customer = await createCustomer(sys, { fullName: 'Hosted Review' });
    const link = await sys.api(`/customers/${customer.id}/kyc-link`, { method: 'POST' });
    expect((await chooseOutcome(sys, link.body.kycUrl, 'MANUAL_REVIEW')).status).toBe(200);
    const [verification] = (await sys.api(`/verifications?customerId=${customer.id}`)).body.data;
    await verificationWhen(sys, verification.id, (v) => v.verificationStatus === 'APPROVED');
    await receiver.waitFor(() => webhookTypesOf(receiver, verification.id, 'VERIFICATION.').length >= 3);
    expect(webhookTypesOf(receiver, verification.id, 'VERIFICATION.')).toEqual([
      'VERIFICATION.IN_PROGRESS',
      'VERIFICATION.PENDING_MANUAL_REVIEW',
      'VERIFICATION.APPROVED',
    ]);
    await customerWhen(customer.id, 'APPROVED');
  });

  test('resolve errors: the provider asks for a document (customer on HOLD); a resubmit gets to APPROVED', async () => {
    const customer = await createCustomer(sys, { fullName: 'Hosted Errors' });
    const link = await sys.api(`/customers/${customer.id}/kyc-link`, { method: 'POST' });
    await chooseOutcome(sys, link.body.kycUrl, 'RESOLVE_ERRORS');
    const [verification] = (await sys.api(`/verifications?customerId=${customer.id}`)).body.data;
    const asked = await verificationWhen(sys, verification.id, (v) => v.verificationStatus === 'RESOLVE_ERRORS');
    expect(asked.errors).toEqual([{
      resourceId: customer.id,
      type: 'POOR_QUALITY_DOCUMENT',
      acceptedDocumentTypes: ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'],
      reason: 'The identity document could not be read; upload a clearer one and resubmit',
    }]);
    await customerWhen(customer.id, 'HOLD');
    const resubmitted = await sys.api('/verifications', { method: 'POST', json: { customerId: customer.id } });
    expect(resubmitted.body).toMatchObject({ id: verification.id, verificationStatus: 'IN_PROGRESS', errors: [] });
    await verificationWhen(sys, verification.id, (v) => v.verificationStatus === 'APPROVED');
    await customerWhen(customer.id, 'APPROVED');
  });

  test(
    'reject: the customer becomes REJECTED, CUSTOMER.KYC_REJECTED '
      + 'is sent, and it can no longer quote (403 USER_NOT_READY)',
    async () => {
      const { customerId, usdAccountId } = await payingCustomer(sys);
      await fund(sys, usdAccountId, 50_000);
      const payee = await externalAccount(sys, customerId, 'MXN_ACCOUNT');
      const link = await sys.api(`/customers/${customerId}/kyc-link`, { method: 'POST' });
      await chooseOutcome(sys, link.body.kycUrl, 'REJECT');
      const [verification] = (await sys.api(`/verifications?customerId=${customerId}`)).body.data;
      const rejected = await verificationWhen(sys, verification.id, (v) => v.verificationStatus === 'REJECTED');
      expect(rejected.errors).toEqual([{
        resourceId: customerId,
        type: 'APPLICANT_REJECTED',
        reason: 'The applicant did not pass screening',
      }]);
      await customerWhen(customerId, 'REJECTED');
      await receiver.waitFor(() =>
        webhookTypesOf(receiver, customerId, 'CUSTOMER.KYC_').includes('CUSTOMER.KYC_REJECTED')
      );
      expectError(
        await sys.api('/quotes', { method: 'POST', json: accountQuote(usdAccountId, payee, 10_000) }),
        403,
        'USER_NOT_READY',
      );
      // A final verification is not resubmitted.
      expect((await sys.api('/verifications', { method: 'POST', json: { customerId } })).body.verificationStatus).toBe(
        'REJECTED',
      );
    },
  );

  test("GET /customers/kyc-link (the SDK's form) finds the customer by platformCustomerId", async () => {
    const customer = await createCustomer(sys, { fullName: 'Sdk Form' });
    const res = await sys.api(
      `/customers/kyc-link?platformCustomerId=${encodeURIComponent(customer.platformCustomerId)}&redirectUri=${
        encodeURIComponent('https://app.example.com/x')
      }`,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      customerId: customer.id,
      platformCustomerId: customer.platformCustomerId,
      provider: 'SUMSUB',
    });
    expect((await fetch(`${sys.rootUrl}${hostedPath(res.body.kycUrl)}`)).status).toBe(200);
    expectError(await sys.api('/customers/kyc-link?platformCustomerId=nobody-here'), 404, 'USER_NOT_FOUND');
    const missing = await sys.api('/customers/kyc-link');
    expectError(missing, 400, 'INVALID_INPUT');
    expect(missing.body.details.errors.map((e: any) => e.field)).toEqual(['platformCustomerId']);
  });

  test('bad input: a redirectUri not http(s) is 400 naming it; an unknown link token is a 404 page', async () => {
    const customer = await createCustomer(sys);
    const bad = await sys.api(`/customers/${customer.id}/kyc-link`, {
      method: 'POST',
      json: { redirectUri: 'javascript:alert(1)' },
    });
    expectError(bad, 400, 'INVALID_INPUT');
    expect(bad.body.details.errors.map((e: any) => e.field)).toEqual(['redirectUri']);
    expect((await fetch(`${sys.rootUrl}/kyc/not-a-real-token`)).status).toBe(404);
    expectError(
      await sys.api('/customers/Customer:00000000-0000-4000-8000-000000000000/kyc-link', { method: 'POST' }),
      404,
      'USER_NOT_FOUND',
    );
  });
});

describe('payments and KYC with ACCOUNTS_PAYMENTS_REQUIRE_KYC_APPROVAL=true', () => {
  let strict: TestSystem;
  beforeAll(async () => {
    strict = await startTestSystem({
      env: { ACCOUNTS_KYC_STEP_MS: '30', ACCOUNTS_PAYMENTS_REQUIRE_KYC_APPROVAL: 'true' },
    });
  });
  afterAll(() => strict.stop());

  test('an UNVERIFIED customer cannot quote (403 USER_NOT_READY); once APPROVED it can', async () => {
    const { customerId, usdAccountId } = await payingCustomer(strict);
    await fund(strict, usdAccountId, 50_000);
    const payee = await externalAccount(strict, customerId, 'MXN_ACCOUNT');
    expectError(
      await strict.api('/quotes', { method: 'POST', json: accountQuote(usdAccountId, payee, 10_000) }),
      403,
      'USER_NOT_READY',
    );
    const link = await strict.api(`/customers/${customerId}/kyc-link`, { method: 'POST' });
    await fetch(`${strict.rootUrl}${hostedPath(link.body.kycUrl)}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'outcome=APPROVE',
    });
    const [verification] = (await strict.api(`/verifications?customerId=${customerId}`)).body.data;
    await verificationWhen(strict, verification.id, (v) => v.verificationStatus === 'APPROVED');
    const deadline = Date.now() + 5000;
    while ((await strict.api(`/customers/${customerId}`)).body.kycStatus !== 'APPROVED' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 25));
    }
    expect((await strict.api('/quotes', { method: 'POST', json: accountQuote(usdAccountId, payee, 10_000) })).status)
      .toBe(201);
  });
});
