import { wire } from '../../../../test/fixtures/wire';
import { httpStatusOf } from '../../../../gateway/http/http-status';
import {
  asPlatform,
  mxnAccountInfo,
  OTHER_PLATFORM,
  PLATFORM,
  solanaWalletInfo,
  startPaymentsHarness,
  type PaymentsHarness,
} from '../../test-fixtures/payments-harness';
import { appErrorOf as failure } from '../../test-fixtures/app-error-of';
import { startFundedPayer } from '../../test-fixtures/funded-payer';

let h: PaymentsHarness;
let customer: string;
let usd: string;
let mxnAccount: string;

beforeAll(async () => ({ h, customer, usd, mxnAccount } = await startFundedPayer(100_000_000)));
afterAll(async () => {
  await h.stop();
});

const body = (extra: Record<string, unknown> = {}) => ({
  source: { sourceType: 'ACCOUNT', accountId: usd },
  destination: { destinationType: 'ACCOUNT', accountId: mxnAccount },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: 10_000,
  ...extra,
});
const lookupId = async (accountId = mxnAccount) =>
  (await h.lookup.lookupExternalAccount({ accountId, customerId: customer, senderUmaAddress: '' }, asPlatform))
    .lookupId;

// The REST shape (lengths, formats, ids) is the gateway's contract (test/http/payments-errors.test.ts); a
// caller that skips it still hears INVALID_INPUT, listing every member the service cannot do without.
test('400 INVALID_INPUT lists every member the service needs and did not get', async () => {
  const err = await failure(
    h.quotes.createQuote({
      ...wire({ source: { sourceType: 'CARD' }, lockedCurrencySide: 'UP', remittanceInformation: 'x'.repeat(81) }),
    }, asPlatform),
  );
  expect([err.code, httpStatusOf(err.code)]).toEqual(['INVALID_INPUT', 400]);
  expect((err.details!.errors as Array<{ field: string }>).map((e) => e.field)).toEqual([
    'source.sourceType',
    'destination',
    'lockedCurrencySide',
    'lockedCurrencyAmount',
  ]);
});

// A fraction cannot travel in an int64: the gateway refuses it (test/http/payments-errors.test.ts).
test.each([0, -5, 9_000_000_000_000_001])('400 INVALID_AMOUNT for lockedCurrencyAmount %d', async (amount) => {
  const err = await failure(h.quotes.createQuote({ ...wire(body({ lockedCurrencyAmount: amount })) }, asPlatform));
  expect([err.code, httpStatusOf(err.code)]).toEqual(['INVALID_AMOUNT', 400]);
});

test('404 LOOKUP_REQUEST_NOT_FOUND for an unknown lookup', async () => {
  const unknown = await failure(
    h.quotes.createQuote({ ...wire(body({ lookupId: 'Lookup:99999999-9999-4999-8999-999999999999' })) }, asPlatform),
  );
  expect([unknown.code, httpStatusOf(unknown.code)]).toEqual(['LOOKUP_REQUEST_NOT_FOUND', 404]);
});

test.each([
  ['below the offer minimum (20.00 MXN)', 100],
  ['above the offer maximum (1,000,000.00 MXN)', 6_000_000],
])('400 AMOUNT_OUT_OF_RANGE %s', async (_name, amount) => {
  const err = await failure(
    h.quotes.createQuote({ ...wire(body({ lookupId: await lookupId(), lockedCurrencyAmount: amount })) }, asPlatform),
  );
  expect([err.code, httpStatusOf(err.code)]).toEqual(['AMOUNT_OUT_OF_RANGE', 400]);
  expect(err.details).toMatchObject({ min: 2_000, max: 100_000_000 });
});

test('400 INVALID_INPUT for a lookup of another account', async () => {
  const other = h.accounts.addExternalAccount(PLATFORM, {
    currency: 'MXN',
    customerId: customer,
    accountInfo: mxnAccountInfo('Luis'),
  });
  const err = await failure(h.quotes.createQuote({ ...wire(body({ lookupId: await lookupId(other) })) }, asPlatform));
  expect(err.code).toBe('INVALID_INPUT');
});

test.each([
  ['a realtime-funding currency outside the catalogue', {
    source: { sourceType: 'REALTIME_FUNDING', currency: 'XYZ' },
  }],
  ['a destination account in a currency no account type of the reference pays out in', 'CHF'],
])('400 INVALID_CURRENCY for %s', async (_name, variant) => {
  const extra = typeof variant === 'string'
    ? {
      destination: {
        destinationType: 'ACCOUNT',
        accountId: h.accounts.addExternalAccount(PLATFORM, {
          currency: variant,
          accountInfo: { accountType: 'SWIFT_ACCOUNT' },
        }),
      },
    }
    : variant;
  const err = await failure(h.quotes.createQuote({ ...wire(body(extra)) }, asPlatform));
  expect([err.code, httpStatusOf(err.code)]).toEqual(['INVALID_CURRENCY', 400]);
});

test('400 SELF_PAYMENT when the destination is the source', async () => {
  const err = await failure(
    h.quotes.createQuote(
      { ...wire(body({ destination: { destinationType: 'ACCOUNT', accountId: usd } })) },
      asPlatform,
    ),
  );
  expect([err.code, httpStatusOf(err.code)]).toEqual(['SELF_PAYMENT', 400]);
});

test('400 TRANSACTION_SIZE_LIMIT_EXCEEDED above the single-transaction maximum ($50,000.00 by default)', async () => {
  await h.quotes.createQuote({ ...wire(body({ lockedCurrencyAmount: 5_000_000 })) }, asPlatform);
  const err = await failure(h.quotes.createQuote({ ...wire(body({ lockedCurrencyAmount: 5_000_001 })) }, asPlatform));
  expect([err.code, httpStatusOf(err.code)]).toEqual(['TRANSACTION_SIZE_LIMIT_EXCEEDED', 400]);
});

test("429 DAILY_VOLUME_LIMIT_EXCEEDED once the day's executed volume would pass the limit", async () => {
  const other = { platformId: OTHER_PLATFORM };
  const account = h.accounts.addInternalAccount(OTHER_PLATFORM, { currency: 'USD' });
  const payee = h.accounts.addExternalAccount(OTHER_PLATFORM, { currency: 'MXN', accountInfo: mxnAccountInfo() });
  await h.sandbox.fundInternalAccount({ accountId: account, ...wire({ amount: 1_000_000 }) }, other);
  h.accounts.configure(OTHER_PLATFORM, {
    limits: [{ currency: 'USD', maxSingleTransaction: 100_000, dailyVolume: 50_000 }],
  });
  const quote = async (amount: number) =>
    (await h.quotes.createQuote({
      ...wire({
        ...body({ lockedCurrencyAmount: amount }),
        source: { sourceType: 'ACCOUNT', accountId: account },
        destination: { destinationType: 'ACCOUNT', accountId: payee },
      }),
    }, other)).quote!;
  const [a, b, c] = [await quote(30_000), await quote(30_000), await quote(20_000)];
  await h.quotes.executeQuote({ quoteId: a.id }, other);
  const err = await failure(h.quotes.executeQuote({ quoteId: b.id }, other));
  expect([err.code, httpStatusOf(err.code)]).toEqual(['DAILY_VOLUME_LIMIT_EXCEEDED', 429]);
  await h.quotes.executeQuote({ quoteId: c.id }, other);
  const size = await failure(quote(100_001));
  expect(size.code).toBe('TRANSACTION_SIZE_LIMIT_EXCEEDED');
});

test('400 EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED above $1,000.00 to a wallet pending ownership checks', async () => {
  const wallet = h.accounts.addExternalAccount(PLATFORM, {
    currency: 'USDC',
    customerId: customer,
    status: 'PENDING_OWNERSHIP_VERIFICATION',
    accountInfo: solanaWalletInfo(),
  });
  const to = { destination: { destinationType: 'ACCOUNT', accountId: wallet } };
  await h.quotes.createQuote({ ...wire(body({ ...to, lockedCurrencyAmount: 100_000 })) }, asPlatform);
  const err = await failure(
    h.quotes.createQuote({ ...wire(body({ ...to, lockedCurrencyAmount: 100_001 })) }, asPlatform),
  );
  expect([err.code, httpStatusOf(err.code)]).toEqual(['EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED', 400]);
});

test('400 INSUFFICIENT_BALANCE when the source does not cover the quote; the quote stays executable', async () => {
  const empty = h.accounts.addInternalAccount(PLATFORM, { currency: 'USD', customerId: customer });
  const { quote } = await h.quotes.createQuote({
    ...wire(body({ source: { sourceType: 'ACCOUNT', accountId: empty } })),
  }, asPlatform);
  const err = await failure(h.quotes.executeQuote({ quoteId: quote!.id }, asPlatform));
  expect([err.code, httpStatusOf(err.code)]).toEqual(['INSUFFICIENT_BALANCE', 400]);
  await h.sandbox.fundInternalAccount({ accountId: empty, ...wire({ amount: 10_000 }) }, asPlatform);
  expect((await h.quotes.executeQuote({ quoteId: quote!.id }, asPlatform)).quote!.status).toBe('PROCESSING');
});

test('404 for unknown accounts, customers and quotes', async () => {
  const missing = await failure(
    h.quotes.createQuote({
      ...wire(
        body({ source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:99999999-9999-4999-8999-999999999999' } }),
      ),
    }, asPlatform),
  );
  expect([missing.code, httpStatusOf(missing.code)]).toEqual(['REFERENCE_NOT_FOUND', 404]);
  const noCustomer = await failure(
    h.quotes.createQuote({
      ...wire(
        body({
          source: {
            sourceType: 'REALTIME_FUNDING',
            currency: 'USD',
            customerId: 'Customer:99999999-9999-4999-8999-999999999999',
          },
        }),
      ),
    }, asPlatform),
  );
  expect(noCustomer.code).toBe('USER_NOT_FOUND');
  const noQuote = await failure(
    h.quotes.executeQuote({ quoteId: 'Quote:99999999-9999-4999-8999-999999999999' }, asPlatform),
  );
  expect([noQuote.code, httpStatusOf(noQuote.code)]).toEqual(['QUOTE_NOT_FOUND', 404]);
});

test('403 END_USER_TERMS_NOT_ACCEPTED until the customer accepts the current terms', async () => {
  const newcomer = h.accounts.addCustomer(PLATFORM, { acceptsCurrentTerms: false });
  const account = h.accounts.addInternalAccount(PLATFORM, { currency: 'USD', customerId: newcomer });
  const err = await failure(
    h.quotes.createQuote({ ...wire(body({ source: { sourceType: 'ACCOUNT', accountId: account } })) }, asPlatform),
  );
  expect([err.code, httpStatusOf(err.code)]).toEqual(['END_USER_TERMS_NOT_ACCEPTED', 403]);
});

test('immediatelyExecute is refused for an embedded-wallet source', async () => {
  const wallet = h.accounts.addInternalAccount(PLATFORM, {
    currency: 'USDC',
    customerId: customer,
    type: 'EMBEDDED_WALLET',
  });
  const err = await failure(
    h.quotes.createQuote({
      ...wire(body({ source: { sourceType: 'ACCOUNT', accountId: wallet }, immediatelyExecute: true })),
    }, asPlatform),
  );
  expect(err.code).toBe('INVALID_INPUT');
  expect(err.details).toMatchObject({ errors: [{ field: 'immediatelyExecute' }] });
});

test('a platform fee override on a non-USD source is INVALID_INPUT', async () => {
  const eur = h.accounts.addInternalAccount(PLATFORM, { currency: 'EUR', customerId: customer });
  const override = {
    platformFeeOverride: { platformFixedFee: { amount: 10, currency: 'EUR' }, platformVariableFeeBps: 0 },
  };
  const err = await failure(
    h.quotes.createQuote(
      { ...wire(body({ source: { sourceType: 'ACCOUNT', accountId: eur }, ...override })) },
      asPlatform,
    ),
  );
  expect(err.details).toMatchObject({ errors: [{ field: 'platformFeeOverride' }] });
});

describe('expiry', () => {
  let fast: PaymentsHarness;
  beforeAll(async () => {
    fast = await startPaymentsHarness({ QUOTE_VALIDITY_SECONDS: '1' });
  });
  afterAll(async () => {
    await fast.stop();
  });

  test('409 CONFLICT (QUOTE_EXPIRED) after expiresAt; the worker marks it EXPIRED and says so', async () => {
    const account = fast.accounts.addInternalAccount(PLATFORM, { currency: 'USD' });
    const payee = fast.accounts.addExternalAccount(PLATFORM, { currency: 'MXN', accountInfo: mxnAccountInfo() });
    await fast.sandbox.fundInternalAccount({ accountId: account, ...wire({ amount: 50_000 }) }, asPlatform);
    const { quote } = await fast.quotes.createQuote({
      ...wire({
        source: { sourceType: 'ACCOUNT', accountId: account },
        destination: { destinationType: 'ACCOUNT', accountId: payee },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 10_000,
      }),
    }, asPlatform);
    await new Promise((r) => setTimeout(r, 1_200));
    const err = await failure(fast.quotes.executeQuote({ quoteId: quote!.id }, asPlatform));
    expect([err.code, err.details?.reason, httpStatusOf(err.code)]).toEqual(['CONFLICT', 'QUOTE_EXPIRED', 409]);
    expect((await fast.quotes.getQuote({ quoteId: quote!.id }, asPlatform)).quote!.status).toBe('EXPIRED');
    await fast.flushEvents();
    expect(
      fast.events.filter((e) => e.aggregateId === quote!.id || e.aggregateId === quote!.transactionId).map((e) =>
        e.type
      ),
    ).toEqual(
      ['QUOTE.CREATED', 'OUTGOING_PAYMENT.PENDING', 'QUOTE.EXPIRED', 'OUTGOING_PAYMENT.EXPIRED'],
    );
  });
});
