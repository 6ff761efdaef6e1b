import { startTestSystem, type TestSystem } from '../system-harness';
import {
  accountQuote,
  balanceOf,
  expectError,
  expectQuoteConflict,
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

test('customer → external account → lookup → quote → execute → the transaction settles', async () => {
  const { customerId, usdAccountId } = await payingCustomer(sys);
  const funded = await fund(sys, usdAccountId, 100_000);
  expect(funded).toMatchObject({ id: usdAccountId, balance: { amount: 100_000, currency: { code: 'USD' } } });
  const payee = await externalAccount(sys, customerId, 'MXN_ACCOUNT');

  const lookup = await sys.api(`/receiver/external-account/${payee}?customerId=${customerId}`);
  expect(lookup.status).toBe(200);
  const created = await sys.api('/quotes', {
    method: 'POST',
    json: accountQuote(usdAccountId, payee, 10_000, { lookupId: lookup.body.lookupId, description: 'Invoice 7' }),
  });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({
    id: expect.stringMatching(/^Quote:/),
    status: 'PENDING',
    transactionId: expect.stringMatching(/^Transaction:/),
    sendingCurrency: { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 },
    receivingCurrency: { code: 'MXN', decimals: 2 },
    totalSendingAmount: 10_000,
    totalReceivingAmount: 172_327,
    exchangeRate: 17.25,
    feesIncluded: 10,
    platformFeesIncluded: 0,
    rateDetails: { gridApiVariableFeeAmount: 10, gridApiFixedFee: 0, counterpartyFixedFee: 0 },
  });
  const quoteId = created.body.id;
  expect((await sys.api(`/quotes/${quoteId}`)).body).toEqual(created.body);

  const executed = await sys.api(`/quotes/${quoteId}/execute`, { method: 'POST' });
  expect(executed.status).toBe(200);
  expect(executed.body.status).toBe('PROCESSING');
  expect(await balanceOf(sys, customerId, usdAccountId)).toBe(90_000);

  const settled = await transactionWhen(sys, created.body.transactionId, (t) => t.status === 'COMPLETED');
  expect(settled).toMatchObject({
    id: created.body.transactionId,
    type: 'OUTGOING',
    direction: 'DEBIT',
    customerId,
    quoteId,
    description: 'Invoice 7',
    source: { sourceType: 'ACCOUNT', accountId: usdAccountId },
    destination: { destinationType: 'ACCOUNT', accountId: payee },
    sentAmount: { amount: 10_000, currency: { code: 'USD' } },
    receivedAmount: { amount: 172_327, currency: { code: 'MXN' } },
    fees: 10,
    platformFees: 0,
    reconciliationInstructions: { reference: expect.stringMatching(/^PAY-/) },
  });
  expect((await sys.api(`/quotes/${quoteId}`)).body.status).toBe('COMPLETED');
  expectQuoteConflict(await sys.api(`/quotes/${quoteId}/execute`, { method: 'POST' }), 'QUOTE_ALREADY_EXECUTED');
});

test('GET /transactions filters by customer and paginates with a cursor', async () => {
  const { customerId, usdAccountId } = await payingCustomer(sys);
  await fund(sys, usdAccountId, 100_000);
  const bank = await externalAccount(sys, customerId, 'USD_ACCOUNT');
  const ids: string[] = [];
  for (const amount of [100, 200, 300]) {
    const res = await sys.api('/transfer-out', {
      method: 'POST',
      json: { source: { accountId: usdAccountId }, destination: { accountId: bank, paymentRail: 'ACH' }, amount },
    });
    expect(res.status).toBe(201);
    ids.push(res.body.id);
    await new Promise((r) => setTimeout(r, 2));
  }
  const first = await sys.api(`/transactions?customerId=${customerId}&limit=2`);
  expect(first.body).toMatchObject({ hasMore: true, totalCount: 3, nextCursor: expect.any(String) });
  const second = await sys.api(`/transactions?customerId=${customerId}&limit=2&cursor=${first.body.nextCursor}`);
  expect(second.body.hasMore).toBe(false);
  expect([...first.body.data, ...second.body.data].map((t: { id: string }) => t.id)).toEqual([...ids].reverse());
  expect((await sys.api(`/transactions?customerId=${customerId}&type=INCOMING`)).body.data).toEqual([]);
  expectError(await sys.api('/transactions?sortOrder=sideways'), 400, 'INVALID_INPUT');
  expectError(
    await sys.api('/transactions/Transaction:99999999-9999-4999-8999-999999999999'),
    404,
    'TRANSACTION_NOT_FOUND',
  );
});

test('deprecated transfer-in credits the account once settled', async () => {
  const { customerId, usdAccountId } = await payingCustomer(sys);
  const bank = await externalAccount(sys, customerId, 'USD_ACCOUNT');
  const res = await sys.api('/transfer-in', {
    method: 'POST',
    json: { source: { accountId: bank }, destination: { accountId: usdAccountId }, amount: 12_550 },
  });
  expect(res.status).toBe(201);
  expect(res.body).toMatchObject({ type: 'INCOMING', status: 'PENDING', receivedAmount: { amount: 12_550 } });
  await transactionWhen(sys, res.body.id, (t) => t.status === 'COMPLETED');
  expect(await balanceOf(sys, customerId, usdAccountId)).toBe(12_550);
});

test('GET /exchange-rates: indicative USD corridors with fees', async () => {
  const res = await sys.api(
    '/exchange-rates?sourceCurrency=USD&destinationCurrency=MXN&destinationCurrency=EUR&sendingAmount=10000',
  );
  expect(res.status).toBe(200);
  expect(res.body.data).toEqual([
    expect.objectContaining({
      destinationCurrency: expect.objectContaining({ code: 'MXN' }),
      destinationPaymentRail: 'SPEI',
      sendingAmount: 10_000,
      receivingAmount: 172_327,
      exchangeRate: 17.25,
      fees: { fixed: 0, total: 10 },
    }),
    expect.objectContaining({
      destinationCurrency: expect.objectContaining({ code: 'EUR' }),
      destinationPaymentRail: 'SEPA_INSTANT',
      receivingAmount: 9_190,
    }),
  ]);
  const again = await sys.api('/exchange-rates?sourceCurrency=USD&destinationCurrency=MXN');
  expect(again.body.data[0].updatedAt).toBe(res.body.data[0].updatedAt);
  expectError(await sys.api('/exchange-rates?sourceCurrency=XYZ'), 400, 'INVALID_CURRENCY');
});

test('GET /quotes (newer SDKs): only quotes, by customer, accounts and Quote status, cursor-paged', async () => {
  const { customerId, usdAccountId } = await payingCustomer(sys);
  await fund(sys, usdAccountId, 100_000);
  const mxn = await externalAccount(sys, customerId, 'MXN_ACCOUNT');
  const usd = await externalAccount(sys, customerId, 'USD_ACCOUNT');
  const quoteIds: string[] = [];
  for (const [to, amount] of [[mxn, 100], [mxn, 200], [usd, 300]] as const) {
    const res = await sys.api('/quotes', { method: 'POST', json: accountQuote(usdAccountId, to, amount) });
    expect(res.status).toBe(201);
    quoteIds.push(res.body.id);
    await new Promise((r) => setTimeout(r, 2));
  }
  // A transfer is a transaction without a quote: not listed.
  await sys.api('/transfer-out', {
    method: 'POST',
    json: { source: { accountId: usdAccountId }, destination: { accountId: usd, paymentRail: 'ACH' }, amount: 50 },
  });
  expect((await sys.api(`/quotes/${quoteIds[0]}/execute`, { method: 'POST' })).status).toBe(200);

  const first = await sys.api(`/quotes?customerId=${customerId}&limit=2`);
  expect(first.status).toBe(200);
  expect(first.body).toMatchObject({ hasMore: true, totalCount: 3, nextCursor: expect.any(String) });
  const second = await sys.api(`/quotes?customerId=${customerId}&limit=2&cursor=${first.body.nextCursor}`);
  expect([...first.body.data, ...second.body.data].map((q: { id: string }) => q.id)).toEqual([...quoteIds].reverse());
  expect(
    (await sys.api(`/quotes?customerId=${customerId}&receivingAccountId=${usd}`)).body.data.map((q: { id: string }) =>
      q.id
    ),
  ).toEqual([quoteIds[2]]);
  expect((await sys.api(`/quotes?sendingAccountId=${usdAccountId}&status=PENDING`)).body.totalCount).toBe(2);
  const executed = (await sys.api(`/quotes?customerId=${customerId}&status=PROCESSING`)).body.data;
  const settledOrNot = executed.length
    ? executed
    : (await sys.api(`/quotes?customerId=${customerId}&status=COMPLETED`)).body.data;
  expect(settledOrNot.map((q: { id: string }) => q.id)).toEqual([quoteIds[0]]);
  expect((await sys.api(`/quotes?customerId=${customerId}&createdAfter=2999-01-01T00:00:00Z`)).body).toMatchObject({
    data: [],
    totalCount: 0,
    hasMore: false,
  });
  const bad = await sys.api('/quotes?status=SIDEWAYS&createdAfter=yesterday');
  expectError(bad, 400, 'INVALID_INPUT');
  expect(bad.body.details.errors).toEqual([
    expect.objectContaining({
      field: 'status',
      constraint: { enum: ['PENDING', 'PENDING_AUTHORIZATION', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED'] },
    }),
  ]);
  expectError(await sys.api('/quotes?limit=500'), 400, 'INVALID_INPUT');
});
