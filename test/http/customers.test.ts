import {
  BUSINESS_CREATE_CASES,
  INDIVIDUAL_CREATE_CASES,
  SUPPORTED,
} from '../../services/accounts/test-fixtures/customer-create-cases';
import {
  BUSINESS_CUSTOMER,
  externalAccountBody,
  INDIVIDUAL_CUSTOMER,
} from '../../services/accounts/test-fixtures/request-bodies';
import { startTestSystem, type TestSystem } from '../system-harness';

let sys: TestSystem;
beforeAll(async () => {
  sys = await startTestSystem({ env: { ACCOUNTS_PLATFORM_CURRENCIES: SUPPORTED.join(',') } });
});
afterAll(async () => {
  await sys.stop();
});

let seq = 0;
const unique = (body: Record<string, unknown>) => ({ ...body, platformCustomerId: `cust-${Date.now()}-${seq++}` });

describe('POST /customers validation through the gateway', () => {
  test.each(INDIVIDUAL_CREATE_CASES)(
    'individual, %s: 400 INVALID_INPUT listing exactly that field',
    async (_name, patch, expected) => {
      const res = await sys.api('/customers', { method: 'POST', json: { ...INDIVIDUAL_CUSTOMER, ...patch } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
      expect(res.body.details.errors).toEqual([expected]);
    },
  );

  test.each(BUSINESS_CREATE_CASES)(
    'business, %s: 400 INVALID_INPUT listing exactly that field',
    async (_name, body, expected) => {
      const res = await sys.api('/customers', { method: 'POST', json: body });
      expect(res.status).toBe(400);
      expect(res.body.details.errors).toEqual([expected]);
    },
  );

  test('every invalid field is listed at once', async () => {
    const res = await sys.api('/customers', {
      method: 'POST',
      json: {
        customerType: 'INDIVIDUAL',
        platformCustomerId: '',
        region: 'usa',
        email: '@',
        phoneNumber: '555',
        birthDate: '1990-1-1',
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.details.errors.map((e: { field: string }) => e.field)).toEqual([
      'platformCustomerId',
      'region',
      'email',
      'phoneNumber',
      'birthDate',
    ]);
  });

  test('a JSON body that is not an object is INVALID_INPUT', async () => {
    const res = await sys.api('/customers', { method: 'POST', json: [1, 2] });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_INPUT');
  });
});

test('list filters are checked by the contract, every invalid one listed in one 400', async () => {
  const customers = await sys.api('/customers?customerType=ROBOT&createdAfter=yesterday&region=XX&currency=usd');
  expect(customers.status).toBe(400);
  expect(customers.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual([
    'createdAfter',
    'currency',
    'customerType',
    'region',
  ]);
  const accounts = await sys.api('/customers/internal-accounts?customerId=bob&type=SAVINGS');
  expect(accounts.status).toBe(400);
  expect(accounts.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(['customerId', 'type']);
});

describe('customers lifecycle', () => {
  test('create, get, update, list with cursor pagination', async () => {
    const created = await sys.api('/customers', { method: 'POST', json: unique(INDIVIDUAL_CUSTOMER) });
    expect(created.status).toBe(201);
    expect(created.body.id).toMatch(/^Customer:[0-9a-f-]{36}$/);
    expect(created.body).toMatchObject({
      customerType: 'INDIVIDUAL',
      fullName: 'Jane Smith',
      email: 'jane.smith@example.com',
    });

    const fetched = await sys.api(`/customers/${created.body.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(created.body);

    const updated = await sys.api(`/customers/${created.body.id}`, {
      method: 'PATCH',
      json: { customerType: 'INDIVIDUAL', fullName: 'Jane Q. Smith' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.fullName).toBe('Jane Q. Smith');

    for (let i = 0; i < 3; i++) await sys.api('/customers', { method: 'POST', json: unique(BUSINESS_CUSTOMER) });
    const first = await sys.api('/customers?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(2);
    expect(first.body.hasMore).toBe(true);
    const second = await sys.api(`/customers?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(second.status).toBe(200);
    const ids = [...first.body.data, ...second.body.data].map((c: { id: string }) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('an unknown customer is 404 USER_NOT_FOUND; a malformed id is 400', async () => {
    const missing = await sys.api('/customers/Customer:00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('USER_NOT_FOUND');
    const malformed = await sys.api('/customers/not-an-id');
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('INVALID_INPUT');
  });

  test(
    'a fixed segment is never read as a customer id: GET /customers/kyc-link '
      + '(what Grid\'s SDK calls) is its own operation, not id "kyc-link"',
    async () => {
      const res = await sys.api('/customers/kyc-link?platformCustomerId=no-such-customer');
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('USER_NOT_FOUND');
    },
  );

  test('update validation lists every invalid field', async () => {
    const created = await sys.api('/customers', { method: 'POST', json: unique(INDIVIDUAL_CUSTOMER) });
    const res = await sys.api(`/customers/${created.body.id}`, {
      method: 'PATCH',
      json: { customerType: 'INDIVIDUAL', birthDate: 'tomorrow', nationality: 'usa' },
    });
    expect(res.status).toBe(400);
    expect(res.body.details.errors.map((e: { field: string }) => e.field)).toEqual(['birthDate', 'nationality']);
  });

  test('a customer gets internal accounts with integer balances', async () => {
    const created = await sys.api('/customers', { method: 'POST', json: unique(INDIVIDUAL_CUSTOMER) });
    const res = await sys.api(`/customers/internal-accounts?customerId=${created.body.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    for (const account of res.body.data) {
      expect(account.id).toMatch(/^InternalAccount:/);
      expect(Number.isInteger(account.balance.amount)).toBe(true);
    }
  });
});

describe('external accounts carry paymentRails (the reference requires them on bank accounts)', () => {
  test('create with paymentRails answers them; create, get and list all show them', async () => {
    const customer = (await sys.api('/customers', { method: 'POST', json: unique(INDIVIDUAL_CUSTOMER) })).body.id;
    const body = externalAccountBody('MXN_ACCOUNT', { customerId: customer });
    const created = await sys.api('/customers/external-accounts', {
      method: 'POST',
      json: { ...body, accountInfo: { ...body.accountInfo, paymentRails: ['SPEI'] } },
    });
    expect(created.status).toBe(201);
    expect(created.body.accountInfo.paymentRails).toEqual(['SPEI']);
    expect((await sys.api(`/customers/external-accounts/${created.body.id}`)).body.accountInfo.paymentRails).toEqual([
      'SPEI',
    ]);
    const listed = (await sys.api(`/customers/external-accounts?customerId=${customer}`)).body.data;
    expect(listed.map((a: { accountInfo: { paymentRails: string[] } }) => a.accountInfo.paymentRails)).toEqual([[
      'SPEI',
    ]]);
  });

  test("without paymentRails a bank account reaches each rail of its kind; other kinds' rails refused", async () => {
    const customer = (await sys.api('/customers', { method: 'POST', json: unique(INDIVIDUAL_CUSTOMER) })).body.id;
    const usd = await sys.api('/customers/external-accounts', {
      method: 'POST',
      json: externalAccountBody('USD_ACCOUNT', { customerId: customer }),
    });
    expect(usd.body.accountInfo.paymentRails).toEqual(['ACH', 'WIRE', 'RTP', 'FEDNOW']);
    const body = externalAccountBody('EUR_ACCOUNT', { customerId: customer });
    const wrong = await sys.api('/customers/external-accounts', {
      method: 'POST',
      json: { ...body, accountInfo: { ...body.accountInfo, paymentRails: ['SPEI'] } },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.details.errors).toEqual([
      expect.objectContaining({ field: 'accountInfo.paymentRails[0]', constraint: { enum: ['SEPA', 'SEPA_INSTANT'] } }),
    ]);
  });
});

test('a list given empty is told apart from one left out (typed StringList on the wire)', async () => {
  const created = await sys.api('/customers', { method: 'POST', json: unique(INDIVIDUAL_CUSTOMER) });
  const empty = await sys.api(`/customers/${created.body.id}`, {
    method: 'PATCH',
    json: { customerType: 'INDIVIDUAL', currencies: [] },
  });
  expect(empty.status).toBe(400);
  expect(empty.body.details.errors).toEqual([expect.objectContaining({ field: 'currencies' })]);
  const untouched = await sys.api(`/customers/${created.body.id}`, {
    method: 'PATCH',
    json: { customerType: 'INDIVIDUAL', fullName: 'Renamed' },
  });
  expect(untouched.status).toBe(200);
  expect(untouched.body.currencies).toEqual(created.body.currencies);
});
