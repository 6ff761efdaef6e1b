import { externalAccountBody, INDIVIDUAL_CUSTOMER } from '../../services/accounts/test-fixtures/request-bodies';
import { startTestSystem, type TestSystem } from '../system-harness';

let sys: TestSystem;
let customerId: string;
let seq = 0;

beforeAll(async () => {
  sys = await startTestSystem();
  const customer = await sys.api('/customers', {
    method: 'POST',
    json: { ...INDIVIDUAL_CUSTOMER, platformCustomerId: 'lookup-sender' },
  });
  customerId = customer.body.id;
});
afterAll(async () => {
  await sys.stop();
});

async function mxnAccount(beneficiaryName = 'Maria Lopez', auth?: string): Promise<string> {
  const body = externalAccountBody('MXN_ACCOUNT');
  (body.accountInfo.beneficiary as Record<string, unknown>).fullName = beneficiaryName;
  const owner = await sys.api('/customers', {
    method: 'POST',
    auth,
    json: { ...INDIVIDUAL_CUSTOMER, platformCustomerId: `receiver-${seq++}` },
  });
  const res = await sys.api('/customers/external-accounts', {
    method: 'POST',
    auth,
    json: { ...body, customerId: owner.body.id },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

const lookup = (accountId: string, query: string, auth?: string) =>
  sys.api(`/receiver/external-account/${accountId}?${query}`, { auth });

test('200: currencies with positive rates and integer bounds, payer fields, and a lookup id', async () => {
  const accountId = await mxnAccount();
  const res = await lookup(accountId, `customerId=${customerId}`);
  expect(res.status).toBe(200);
  expect(res.body.accountId).toBe(accountId);
  expect(res.body.lookupId).toMatch(/^Lookup:[0-9a-f-]{36}$/);
  const mxn = res.body.supportedCurrencies.find((c: { currency: { code: string } }) => c.currency.code === 'MXN');
  expect(mxn.currency).toEqual({ code: 'MXN', name: expect.any(String), symbol: expect.any(String), decimals: 2 });
  expect(mxn.estimatedExchangeRate).toBeGreaterThan(0);
  for (const c of res.body.supportedCurrencies) {
    expect(Number.isInteger(c.min) && c.min > 0).toBe(true);
    expect(Number.isInteger(c.max) && c.max >= c.min).toBe(true);
  }
  for (const f of res.body.requiredPayerDataFields) {
    expect(typeof f.name).toBe('string');
    expect(typeof f.mandatory).toBe('boolean');
  }
});

test('200 with an UMA sender address', async () => {
  const res = await lookup(await mxnAccount(), 'senderUmaAddress=%24alice%40sender.example');
  expect(res.status).toBe(200);
});

describe('400 INVALID_INPUT', () => {
  test.each([
    ['neither query parameter', ''],
    ['a malformed UMA address', 'senderUmaAddress=alice'],
    ['a malformed customer id', 'customerId=Customer:123'],
  ])('%s', async (_name, query) => {
    const res = await lookup(await mxnAccount(), query);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_INPUT');
  });
  test('a malformed account id', async () => {
    const res = await lookup('ExternalAccount:nope', `customerId=${customerId}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_INPUT');
  });
});

test('401 without credentials', async () => {
  const res = await sys.api(
    `/receiver/external-account/ExternalAccount:00000000-0000-4000-8000-000000000000?customerId=${customerId}`,
    { auth: false },
  );
  expect(res.status).toBe(401);
  expect(res.body.code).toBe('UNAUTHORIZED');
});

describe('404', () => {
  test('an unknown account', async () => {
    const res = await lookup('ExternalAccount:00000000-0000-4000-8000-000000000000', `customerId=${customerId}`);
    expect(res.status).toBe(404);
  });
  test("another platform's account answers exactly like an unknown one", async () => {
    const other = await sys.createPlatform();
    const foreign = await mxnAccount('Maria Lopez', other.auth);
    const unknown = await lookup('ExternalAccount:00000000-0000-4000-8000-000000000000', `customerId=${customerId}`);
    const res = await lookup(foreign, `customerId=${customerId}`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(unknown.body.code);
    expect(res.body.message.replace(foreign, 'ID')).toBe(
      unknown.body.message.replace('ExternalAccount:00000000-0000-4000-8000-000000000000', 'ID'),
    );
  });
  test('an unknown sender customer: USER_NOT_FOUND', async () => {
    const res = await lookup(await mxnAccount(), 'customerId=Customer:00000000-0000-4000-8000-000000000000');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('USER_NOT_FOUND');
  });
});

describe('counterparty failures, triggered by sandbox magic beneficiary names', () => {
  test.each([
    ['Sandbox Unsupported Version', 412, 'UNSUPPORTED_UMA_VERSION'],
    ['Sandbox Pubkey Fetch Error', 424, 'COUNTERPARTY_PUBKEY_FETCH_ERROR'],
    ['Sandbox No Compatible Version', 424, 'NO_COMPATIBLE_UMA_VERSION'],
    ['Sandbox Lnurlp Failed', 424, 'LNURLP_REQUEST_FAILED'],
    ['Sandbox Lookup Failed', 400, 'LOOKUP_REQUEST_FAILED'],
    ['Sandbox Internal Error', 500, 'INTERNAL_ERROR'],
  ])('%s → %i %s', async (name, status, code) => {
    const res = await lookup(await mxnAccount(name), `customerId=${customerId}`);
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ status, code, message: expect.any(String) });
  });
});

test("the estimated rate is from the sender's currency: its first declared currency", async () => {
  const accountId = await mxnAccount();
  const usd = await lookup(accountId, `customerId=${customerId}`);
  const euroSender = await sys.api('/customers', {
    method: 'POST',
    json: { ...INDIVIDUAL_CUSTOMER, platformCustomerId: 'euro-sender', currencies: ['EUR'] },
  });
  const eur = await lookup(accountId, `customerId=${euroSender.body.id}`);
  const rate = (res: { body: any }) =>
    res.body.supportedCurrencies.find((c: { currency: { code: string } }) => c.currency.code === 'MXN')
      .estimatedExchangeRate;
  expect(rate(usd)).toBe(17.25);
  expect(rate(eur)).toBeCloseTo(17.25 / 0.92, 6);
});
