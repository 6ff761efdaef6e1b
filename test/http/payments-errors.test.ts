import { startTestSystem, type TestSystem } from '../system-harness';
import {
  accountQuote,
  expectError,
  expectQuoteConflict,
  externalAccount,
  FAST_SETTLEMENT,
  fund,
  payingCustomer,
  transactionWhen,
} from './payments-fixtures';

let sys: TestSystem;
let customerId: string;
let usd: string;
let mxn: string;

beforeAll(async () => {
  sys = await startTestSystem({ env: FAST_SETTLEMENT });
  ({ customerId, usdAccountId: usd } = await payingCustomer(sys, { umaAddress: '$errors@sandbox.example.com' }));
  mxn = await externalAccount(sys, customerId, 'MXN_ACCOUNT');
  await fund(sys, usd, 20_000_000);
});
afterAll(async () => {
  await sys.stop();
});

const quote = (body: unknown) => sys.api('/quotes', { method: 'POST', json: body });

test('400 INVALID_INPUT with details.errors for a malformed quote request', async () => {
  const res = await quote({
    source: { sourceType: 'ACCOUNT' },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 100,
  });
  expectError(res, 400, 'INVALID_INPUT');
  expect(res.body.details.errors.map((e: { field: string }) => e.field)).toEqual(['source.accountId', 'destination']);
});

test.each([0, -100])('400 INVALID_AMOUNT for lockedCurrencyAmount %d', async (amount) => {
  expectError(await quote(accountQuote(usd, mxn, amount)), 400, 'INVALID_AMOUNT');
});

test.each([12.5, '100', 2 ** 60])(
  '400 INVALID_INPUT naming the member for a lockedCurrencyAmount that is not an integer: %p',
  async (amount) => {
    const res = await quote(accountQuote(usd, mxn, amount as number, { description: 7 }));
    expectError(res, 400, 'INVALID_INPUT');
    expect(res.body.details.errors.map((e: { field: string }) => e.field)).toEqual([
      'lockedCurrencyAmount',
      'description',
    ]);
  },
);

test('404 LOOKUP_REQUEST_NOT_FOUND for an unknown lookupId', async () => {
  expectError(
    await quote(accountQuote(usd, mxn, 10_000, { lookupId: 'Lookup:99999999-9999-4999-8999-999999999999' })),
    404,
    'LOOKUP_REQUEST_NOT_FOUND',
  );
});

test("400 AMOUNT_OUT_OF_RANGE outside the lookup's min/max", async () => {
  const lookup = await sys.api(`/receiver/external-account/${mxn}?customerId=${customerId}`);
  expectError(await quote(accountQuote(usd, mxn, 50, { lookupId: lookup.body.lookupId })), 400, 'AMOUNT_OUT_OF_RANGE');
});

test('400 INVALID_CURRENCY for a currency the platform does not pay', async () => {
  expectError(
    await quote({ ...accountQuote(usd, mxn, 100), source: { sourceType: 'REALTIME_FUNDING', currency: 'XYZ' } }),
    400,
    'INVALID_CURRENCY',
  );
  expectError(
    await sys.api('/transfer-out', {
      method: 'POST',
      json: { source: { accountId: usd }, destination: { accountId: mxn }, amount: 100 },
    }),
    400,
    'INVALID_CURRENCY',
  );
});

test('400 SELF_PAYMENT to the source account itself', async () => {
  expectError(await quote(accountQuote(usd, usd, 100)), 400, 'SELF_PAYMENT');
});

test('400 TRANSACTION_SIZE_LIMIT_EXCEEDED above the single-transaction maximum', async () => {
  expectError(await quote(accountQuote(usd, mxn, 5_000_001)), 400, 'TRANSACTION_SIZE_LIMIT_EXCEEDED');
});

test('400 EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED to an unverified first-party wallet above $1,000', async () => {
  const wallet = await externalAccount(sys, customerId, 'SOLANA_WALLET', { ownershipType: 'FIRST_PARTY' });
  expect((await sys.api(`/customers/external-accounts/${wallet}`)).body.status).toBe('PENDING_OWNERSHIP_VERIFICATION');
  expect((await quote(accountQuote(usd, wallet, 100_000))).status).toBe(201);
  expectError(await quote(accountQuote(usd, wallet, 100_001)), 400, 'EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED');
});

test('403 END_USER_TERMS_NOT_ACCEPTED for a customer without consent to the current terms', async () => {
  const newcomer = await payingCustomer(sys, { acceptTerms: false });
  expectError(await quote(accountQuote(newcomer.usdAccountId, mxn, 100)), 403, 'END_USER_TERMS_NOT_ACCEPTED');
});

test('404 QUOTE_NOT_FOUND; 409 CONFLICT (QUOTE_ALREADY_EXECUTED); 400 INSUFFICIENT_BALANCE', async () => {
  expectError(await sys.api('/quotes/Quote:99999999-9999-4999-8999-999999999999'), 404, 'QUOTE_NOT_FOUND');
  const created = await quote(accountQuote(usd, mxn, 100));
  expect((await sys.api(`/quotes/${created.body.id}/execute`, { method: 'POST' })).status).toBe(200);
  expectQuoteConflict(
    await sys.api(`/quotes/${created.body.id}/execute`, { method: 'POST' }),
    'QUOTE_ALREADY_EXECUTED',
  );
  const poor = await payingCustomer(sys);
  const unfunded = await quote(accountQuote(poor.usdAccountId, mxn, 100));
  expectError(await sys.api(`/quotes/${unfunded.body.id}/execute`, { method: 'POST' }), 400, 'INSUFFICIENT_BALANCE');
});

test('409 TRANSACTION_NOT_CANCELLABLE once sent; 409 TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL', async () => {
  const bank = await externalAccount(sys, customerId, 'USD_ACCOUNT');
  const out = await sys.api('/transfer-out', {
    method: 'POST',
    json: { source: { accountId: usd }, destination: { accountId: bank }, amount: 100 },
  });
  await transactionWhen(sys, out.body.id, (t) => t.status === 'COMPLETED');
  expectError(
    await sys.api(`/transactions/${out.body.id}/cancel`, { method: 'POST' }),
    409,
    'TRANSACTION_NOT_CANCELLABLE',
  );
  expectError(
    await sys.api(`/transactions/${out.body.id}/approve`, { method: 'POST' }),
    409,
    'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
  );
  expectError(
    await sys.api(`/transactions/${out.body.id}/reject`, { method: 'POST', json: { reason: 'nope' } }),
    409,
    'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
  );
});

test('400 INVALID_INPUT saying why, cancelling a PENDING transaction of a quote never executed or funded', async () => {
  const created = await quote({
    ...accountQuote(usd, mxn, 5_000),
    source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId },
  });
  expect(created.status).toBe(201);
  const id = created.body.transactionId;
  expect((await sys.api(`/transactions/${id}`)).body.status).toBe('PENDING');
  const res = await sys.api(`/transactions/${id}/cancel`, { method: 'POST' });
  expectError(res, 400, 'INVALID_INPUT');
  expect(res.body.message).toContain('never executed or funded');
  expect(res.body.message).toContain(created.body.expiresAt);
  expect(res.body.details.errors).toEqual([expect.objectContaining({ field: 'transactionId' })]);
  expect((await sys.api(`/transactions/${id}`)).body.status).toBe('PENDING');
});

test("429 DAILY_VOLUME_LIMIT_EXCEEDED past the day's volume ($100,000.00 of USD by default)", async () => {
  const a = await quote(accountQuote(usd, mxn, 5_000_000));
  const b = await quote(accountQuote(usd, mxn, 4_900_000));
  const c = await quote(accountQuote(usd, mxn, 200_000));
  expect((await sys.api(`/quotes/${a.body.id}/execute`, { method: 'POST' })).status).toBe(200);
  expect((await sys.api(`/quotes/${b.body.id}/execute`, { method: 'POST' })).status).toBe(200);
  expectError(await sys.api(`/quotes/${c.body.id}/execute`, { method: 'POST' }), 429, 'DAILY_VOLUME_LIMIT_EXCEEDED');
  expectError(
    await quote(accountQuote(usd, mxn, 200_000, { immediatelyExecute: true })),
    429,
    'DAILY_VOLUME_LIMIT_EXCEEDED',
  );
});

test('401 without credentials', async () => {
  expectError(await sys.api('/quotes', { method: 'POST', json: {}, auth: false }), 401, 'UNAUTHORIZED');
});

describe('expiry', () => {
  let fast: TestSystem;
  beforeAll(async () => {
    fast = await startTestSystem({ env: { ...FAST_SETTLEMENT, QUOTE_VALIDITY_SECONDS: '1' } });
  });
  afterAll(async () => {
    await fast.stop();
  });

  test('409 CONFLICT (QUOTE_EXPIRED) once expiresAt has passed; the quote then reads EXPIRED', async () => {
    const payer = await payingCustomer(fast);
    const payee = await externalAccount(fast, payer.customerId, 'MXN_ACCOUNT');
    await fund(fast, payer.usdAccountId, 10_000);
    const created = await fast.api('/quotes', { method: 'POST', json: accountQuote(payer.usdAccountId, payee, 1_000) });
    expect(created.status).toBe(201);
    await new Promise((r) => setTimeout(r, 1_100));
    expectQuoteConflict(await fast.api(`/quotes/${created.body.id}/execute`, { method: 'POST' }), 'QUOTE_EXPIRED');
    await transactionWhen(fast, created.body.transactionId, (t) => t.status === 'EXPIRED');
  });
});
