import { startTestSystem, type TestSystem } from '../system-harness';
import {
  accountQuote,
  expectError,
  externalAccount,
  FAST_SETTLEMENT,
  fund,
  payingCustomer,
  transactionWhen,
} from './payments-fixtures';

let sys: TestSystem;
beforeAll(async () => {
  sys = await startTestSystem({ env: FAST_SETTLEMENT });
});
afterAll(async () => {
  await sys.stop();
});

test('fees and corridor limits set with PATCH /config apply to quotes, executions and exchange rates', async () => {
  const patched = await sys.api('/config', {
    method: 'PATCH',
    json: {
      feeConfigs: [{
        feeType: 'CROSS_CURRENCY_TRANSACTION',
        sourceCurrency: 'USD',
        variableFeeBps: 30,
        fixedFee: { amount: 50, currency: 'USD' },
      }],
      limits: [{ currency: 'USD', receivingCurrency: 'MXN', maxSingleTransaction: 100_000, dailyVolume: 150_000 }],
    },
  });
  expect(patched.status).toBe(200);

  const { customerId, usdAccountId } = await payingCustomer(sys);
  await fund(sys, usdAccountId, 1_000_000);
  const mxn = await externalAccount(sys, customerId, 'MXN_ACCOUNT');

  expectError(
    await sys.api('/quotes', { method: 'POST', json: accountQuote(usdAccountId, mxn, 100_001) }),
    400,
    'TRANSACTION_SIZE_LIMIT_EXCEEDED',
  );
  const quote = await sys.api('/quotes', { method: 'POST', json: accountQuote(usdAccountId, mxn, 100_000) });
  expect(quote.status).toBe(201);
  // 10 bps service fee (100) + platform 50 fixed and 30 bps (300).
  expect([quote.body.feesIncluded, quote.body.platformFeesIncluded]).toEqual([450, 350]);
  expect((await sys.api(`/quotes/${quote.body.id}/execute`, { method: 'POST' })).status).toBe(200);
  const settled = await transactionWhen(sys, quote.body.transactionId, (t) => t.status === 'COMPLETED');
  expect(settled.platformFees).toBe(350);

  const second = await sys.api('/quotes', { method: 'POST', json: accountQuote(usdAccountId, mxn, 60_000) });
  expectError(
    await sys.api(`/quotes/${second.body.id}/execute`, { method: 'POST' }),
    429,
    'DAILY_VOLUME_LIMIT_EXCEEDED',
  );

  const rates = await sys.api('/exchange-rates?sourceCurrency=USD&destinationCurrency=MXN');
  expect(rates.body.data[0].fees).toEqual({ fixed: 50, total: 90 }); // on the default 10000: 10 + 50 + 30
});

test('supportedCurrencies minAmount/maxAmount bound what a quote sends: 400 AMOUNT_OUT_OF_RANGE outside', async () => {
  const config = await sys.api('/config');
  const supportedCurrencies = config.body.supportedCurrencies.map((c: Record<string, unknown>) => ({
    currencyCode: c.currencyCode,
    requiredCounterpartyFields: c.requiredCounterpartyFields,
    enabledTransactionTypes: c.enabledTransactionTypes,
    ...(c.currencyCode === 'USD'
      ? { minAmount: 500, maxAmount: 200_000 }
      : { minAmount: c.minAmount, maxAmount: c.maxAmount }),
  }));
  expect((await sys.api('/config', { method: 'PATCH', json: { supportedCurrencies } })).status).toBe(200);

  const { customerId, usdAccountId } = await payingCustomer(sys);
  await fund(sys, usdAccountId, 1_000_000);
  const bank = await externalAccount(sys, customerId, 'USD_ACCOUNT');
  for (const amount of [499, 200_001]) {
    const res = await sys.api('/quotes', { method: 'POST', json: accountQuote(usdAccountId, bank, amount) });
    expectError(res, 400, 'AMOUNT_OUT_OF_RANGE');
    expect(res.body.details).toEqual({ currency: 'USD', minAmount: 500, maxAmount: 200_000, amount });
  }
  // The bound applies to what is sent, fees included: about 1,999.00 USD converted, over 2,000.00 with fees.
  const mxn = await externalAccount(sys, customerId, 'MXN_ACCOUNT');
  const received = await sys.api('/quotes', {
    method: 'POST',
    json: accountQuote(usdAccountId, mxn, 3_448_275, { lockedCurrencySide: 'RECEIVING' }),
  });
  expectError(received, 400, 'AMOUNT_OUT_OF_RANGE');
  expect(received.body.details.amount).toBeGreaterThan(200_000);
  for (const amount of [500, 200_000]) {
    expect(
      (await sys.api('/quotes', {
        method: 'POST',
        json: accountQuote(usdAccountId, bank, amount, { immediatelyExecute: true }),
      })).status,
    ).toBe(201);
  }
});

test(
  'an execute right after PATCH /config counts against the new '
    + 'daily limit, lowered or raised, for quotes made before it',
  async () => {
    const { customerId, usdAccountId } = await payingCustomer(sys);
    await fund(sys, usdAccountId, 1_000_000);
    const bank = await externalAccount(sys, customerId, 'USD_ACCOUNT');
    const [first, second] = [
      await sys.api('/quotes', { method: 'POST', json: accountQuote(usdAccountId, bank, 1_000) }),
      await sys.api('/quotes', { method: 'POST', json: accountQuote(usdAccountId, bank, 1_000) }),
    ];
    expect([first.status, second.status]).toEqual([201, 201]);

    const limit = (dailyVolume: number) =>
      sys.api('/config', {
        method: 'PATCH',
        json: { limits: [{ currency: 'USD', receivingCurrency: 'USD', dailyVolume }] },
      });
    expect((await limit(999)).status).toBe(200);
    expectError(
      await sys.api(`/quotes/${first.body.id}/execute`, { method: 'POST' }),
      429,
      'DAILY_VOLUME_LIMIT_EXCEEDED',
    );
    expect((await limit(1_000_000)).status).toBe(200);
    expect((await sys.api(`/quotes/${second.body.id}/execute`, { method: 'POST' })).status).toBe(200);
  },
);
