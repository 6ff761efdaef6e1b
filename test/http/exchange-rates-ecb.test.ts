import {
  ecbDocumentOf,
  startFakeRatesServer,
  type FakeRatesServer,
} from '../../services/quotes-transactions/rates/test-fixtures/fake-rates-server';
import { startTestSystem, type TestSystem } from '../system-harness';
import { accountQuote, expectError, externalAccount, fund, payingCustomer } from './payments-fixtures';

/** The system on RATE_SOURCE=ecb, reading a local stand-in for the ECB's URL that serves a recorded document. */
let sys: TestSystem;
let ecb: FakeRatesServer;
const today = new Date().toISOString().slice(0, 10);
beforeAll(async () => {
  ecb = await startFakeRatesServer();
  ecb.answer = { status: 200, body: ecbDocumentOf(today) };
  sys = await startTestSystem({
    env: {
      RATE_SOURCE: 'ecb',
      ECB_RATES_URL: ecb.url,
      RATE_REFRESH_MS: '1000',
      RATE_MAX_AGE_MS: String(3 * 24 * 3_600_000),
    },
  });
});
afterAll(async () => {
  await sys.stop();
  await ecb.close();
});

test("a quote is priced at the ECB's rate crossed through the euro, and the listing shows the same rate", async () => {
  const { customerId, usdAccountId } = await payingCustomer(sys);
  await fund(sys, usdAccountId, 100_000);
  const quote = await sys.api('/quotes', {
    method: 'POST',
    json: accountQuote(usdAccountId, await externalAccount(sys, customerId, 'MXN_ACCOUNT'), 10_000),
  });
  expect(quote.status).toBe(201);
  expect(quote.body.exchangeRate).toBe(Number((21.3071 / 1.1568).toPrecision(10)));

  const listing = await sys.api('/exchange-rates?sourceCurrency=USD&destinationCurrency=EUR&destinationCurrency=KES');
  expect(listing.status).toBe(200);
  // KES has no ECB reference rate: the corridor is left out, not priced on a guess.
  expect(listing.body.data).toEqual([
    expect.objectContaining({
      destinationCurrency: expect.objectContaining({ code: 'EUR' }),
      exchangeRate: Number((1 / 1.1568).toPrecision(10)),
    }),
  ]);
});

test('a currency the ECB does not publish (BTC) cannot be quoted: 400 INVALID_CURRENCY', async () => {
  const { customerId, usdAccountId } = await payingCustomer(sys);
  const res = await sys.api('/quotes', {
    method: 'POST',
    json: accountQuote(usdAccountId, await externalAccount(sys, customerId, 'SPARK_WALLET'), 10_000),
  });
  expectError(res, 400, 'INVALID_CURRENCY');
  expect(res.body.message).toMatch(/ECB/);
});

test('when the newest document is older than RATE_MAX_AGE_MS, quotes are refused: 503 UNAVAILABLE, STALE', async () => {
  const { customerId, usdAccountId } = await payingCustomer(sys);
  const eur = await externalAccount(sys, customerId, 'EUR_ACCOUNT');
  const stale = new Date(Date.now() - 5 * 24 * 3_600_000).toISOString().slice(0, 10);
  ecb.answer = { status: 200, body: ecbDocumentOf(stale) };
  const seenBefore = ecb.requests;
  // The cached document is used until the refresh interval passes; wait for the source to fetch the stale one.
  let res = await sys.api('/quotes', { method: 'POST', json: accountQuote(usdAccountId, eur, 10_000) });
  while (res.status === 201) {
    expect(ecb.requests - seenBefore).toBeLessThan(50);
    await new Promise((r) => setTimeout(r, 100));
    res = await sys.api('/quotes', { method: 'POST', json: accountQuote(usdAccountId, eur, 10_000) });
  }
  expectError(res, 503, 'UNAVAILABLE');
  expect(res.body.message).toContain(stale);
  expect(res.body.details).toMatchObject({ rateSource: 'ECB', reason: 'STALE', publishedOn: stale });

  ecb.answer = { status: 200, body: ecbDocumentOf(today) };
  let again = res;
  while (again.status === 503) {
    await new Promise((r) => setTimeout(r, 100));
    again = await sys.api('/quotes', { method: 'POST', json: accountQuote(usdAccountId, eur, 10_000) });
  }
  expect(again.status).toBe(201);
});
