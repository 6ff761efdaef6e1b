import { randomBytes } from 'node:crypto';
import { wire } from '../../../../test/fixtures/wire';
import { createEmbeddedDocumentStore } from '../../../../lib/store/embedded-document-store';
import { LOOKUPS_COLLECTION } from '../store/lookup-document-store';
import { createFakePaymentAccounts } from '../../test-fixtures/fake-payment-accounts';
import { appErrorOf as failure } from '../../test-fixtures/app-error-of';
import {
  asPlatform,
  mxnAccountInfo,
  OTHER_PLATFORM,
  PLATFORM,
  startPaymentsHarness,
  type PaymentsHarness,
} from '../../test-fixtures/payments-harness';

// A lookup answers a signed id and writes nothing; a quote citing it verifies the id, even in a
// process started after the lookup (same key, nothing stored), and keeps every check it made on a stored lookup.
const key = randomBytes(32).toString('hex');
const store = createEmbeddedDocumentStore();
const accounts = createFakePaymentAccounts();
const customer = accounts.addCustomer(PLATFORM, {});
const usd = accounts.addInternalAccount(PLATFORM, { currency: 'USD', customerId: customer });
const mxnAccount = accounts.addExternalAccount(PLATFORM, {
  currency: 'MXN',
  customerId: customer,
  accountInfo: mxnAccountInfo(),
});
const otherPayee = accounts.addExternalAccount(PLATFORM, {
  currency: 'MXN',
  customerId: customer,
  accountInfo: mxnAccountInfo('Luis Diaz'),
});
let h: PaymentsHarness;

beforeAll(async () => {
  h = await startPaymentsHarness({ STABLECOIN_SECRET_KEY: key }, { store, accounts });
  await h.sandbox.fundInternalAccount({ accountId: usd, ...wire({ amount: 1_000_000 }) }, asPlatform);
});
afterAll(async () => {
  await h.stop();
});

const lookUp = (accountId = mxnAccount) =>
  h.lookup.lookupExternalAccount({ accountId, customerId: customer, senderUmaAddress: '' }, asPlatform);
const quoteBody = (lookupId: string, accountId = mxnAccount, amount = 10_000) =>
  wire({
    source: { sourceType: 'ACCOUNT', accountId: usd },
    destination: { destinationType: 'ACCOUNT', accountId, paymentRail: 'SPEI' },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: amount,
    lookupId,
  });

test('a lookup stores nothing, and a quote citing it is priced', async () => {
  const { lookupId } = await lookUp();
  expect(lookupId).toMatch(/^Lookup:[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(await store.collection(LOOKUPS_COLLECTION).countDocuments({})).toBe(0);
  const { quote } = await h.quotes.createQuote(quoteBody(lookupId), asPlatform);
  expect(quote).toMatchObject({ status: 'PENDING', receivingCurrency: { code: 'MXN' } });
});

test("what a stored lookup checked: another receiver (named), another platform, the offer's bounds, id", async () => {
  const { lookupId } = await lookUp();
  expect(await failure(h.quotes.createQuote(quoteBody(lookupId, otherPayee), asPlatform))).toMatchObject({
    code: 'INVALID_INPUT',
    details: { errors: [{ field: 'lookupId', message: `was made for ${mxnAccount}` }] },
  });
  expect(await failure(h.lookup.getLookup({ lookupId }, { platformId: OTHER_PLATFORM }))).toMatchObject({
    code: 'LOOKUP_REQUEST_NOT_FOUND',
  });
  expect(await failure(h.quotes.createQuote(quoteBody(lookupId, mxnAccount, 1), asPlatform))).toMatchObject({
    code: 'AMOUNT_OUT_OF_RANGE',
  });
  const forged = lookupId.slice(0, -1) + (lookupId.endsWith('0') ? '1' : '0');
  expect(await failure(h.quotes.createQuote(quoteBody(forged), asPlatform))).toMatchObject({
    code: 'LOOKUP_REQUEST_NOT_FOUND',
  });
});

test('a process started after the lookup takes it with the same key (nothing lost); another key: 404', async () => {
  const { lookupId } = await lookUp();
  const after = await startPaymentsHarness({ STABLECOIN_SECRET_KEY: key }, { store, accounts });
  const otherKey = await startPaymentsHarness({ STABLECOIN_SECRET_KEY: randomBytes(32).toString('hex') }, {
    store,
    accounts,
  });
  try {
    const { quote } = await after.quotes.createQuote(quoteBody(lookupId), asPlatform);
    expect(quote).toMatchObject({ status: 'PENDING' });
    // A receiver it was not made for, in a process that does not hold it: refused, without naming one.
    expect(await failure(after.quotes.createQuote(quoteBody(lookupId, otherPayee), asPlatform))).toMatchObject({
      code: 'LOOKUP_REQUEST_NOT_FOUND',
    });
    expect(await failure(otherKey.quotes.createQuote(quoteBody(lookupId), asPlatform))).toMatchObject({
      code: 'LOOKUP_REQUEST_NOT_FOUND',
    });
  } finally {
    await after.stop();
    await otherKey.stop();
  }
});
