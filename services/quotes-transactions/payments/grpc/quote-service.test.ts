import { wire } from '../../../../test/fixtures/wire';
import { AppError } from '../../../../lib/errors';
import { isId } from '../../../../lib/ids';
import {
  asPlatform,
  eventually,
  mxnAccountInfo,
  PLATFORM,
  type PaymentsHarness,
} from '../../test-fixtures/payments-harness';
import { appErrorOf as failure } from '../../test-fixtures/app-error-of';
import { startFundedPayer } from '../../test-fixtures/funded-payer';

let h: PaymentsHarness;
let customer: string;
let usd: string;
let mxnAccount: string;

beforeAll(async () => ({ h, customer, usd, mxnAccount } = await startFundedPayer(1_000_000)));
afterAll(async () => {
  await h.stop();
});

const quoteBody = (amount: number, extra: Record<string, unknown> = {}) => ({
  source: { sourceType: 'ACCOUNT', accountId: usd },
  destination: { destinationType: 'ACCOUNT', accountId: mxnAccount, paymentRail: 'SPEI' },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: amount,
  description: 'Invoice 42',
  ...extra,
});

test('lookup → quote → execute → the transaction settles asynchronously, and the ledger balances', async () => {
  const { lookupId } = await h.lookup.lookupExternalAccount({
    accountId: mxnAccount,
    customerId: customer,
    senderUmaAddress: '',
  }, asPlatform);
  const { quote } = await h.quotes.createQuote({ ...wire(quoteBody(10_000, { lookupId })) }, asPlatform);
  expect(quote).toMatchObject({
    status: 'PENDING',
    totalSendingAmount: 10_000,
    totalReceivingAmount: 172_327,
    exchangeRate: 17.25,
    feesIncluded: 10,
    platformFeesIncluded: 0,
    sendingCurrency: { code: 'USD', decimals: 2 },
    receivingCurrency: { code: 'MXN', decimals: 2 },
    source: { sourceType: 'ACCOUNT', accountId: usd },
    destination: { destinationType: 'ACCOUNT', accountId: mxnAccount, paymentRail: 'SPEI' },
  });
  expect(isId('Quote', quote!.id)).toBe(true);
  expect(isId('Transaction', quote!.transactionId)).toBe(true);
  expect(Date.parse(quote!.expiresAt) - Date.parse(quote!.createdAt)).toBe(300_000);

  const executed = await h.quotes.executeQuote({ quoteId: quote!.id }, asPlatform);
  expect(executed.quote).toMatchObject({ status: 'PROCESSING', transactionId: quote!.transactionId });
  expect((await h.ledger.getBalances({ accountIds: [usd] }, asPlatform)).balances[0].available).toBe(990_000);

  const settled = await eventually(async () => {
    const { transaction } = await h.transactions.getTransaction({ transactionId: quote!.transactionId }, asPlatform);
    return transaction!.status === 'COMPLETED' ? transaction : undefined;
  });
  expect(settled).toMatchObject({
    type: 'OUTGOING',
    direction: 'DEBIT',
    customerId: customer,
    quoteId: quote!.id,
    description: 'Invoice 42',
    sentAmount: { amount: 10_000, currency: { code: 'USD' } },
    receivedAmount: { amount: 172_327, currency: { code: 'MXN' } },
    fees: 10,
    platformFees: 0,
    paymentRail: 'SPEI',
    railSelectionMode: 'MANUAL',
  });
  expect(settled!.settledAt).toBeDefined();
  expect(await h.balanceSums()).toEqual({ USD: 0, MXN: 0 });

  await h.flushEvents();
  const kinds = h.events.filter((e) => e.aggregateId === quote!.transactionId || e.aggregateId === quote!.id).map((e) =>
    e.type
  );
  expect(kinds).toEqual([
    'QUOTE.CREATED',
    'OUTGOING_PAYMENT.PENDING',
    'QUOTE.EXECUTED',
    'OUTGOING_PAYMENT.PROCESSING',
    'OUTGOING_PAYMENT.COMPLETED',
  ]);
  expect(h.events.find((e) => e.type === 'OUTGOING_PAYMENT.COMPLETED')).toMatchObject({
    version: 1,
    platformId: PLATFORM,
    data: { id: quote!.transactionId, status: 'COMPLETED' },
  });
  expect(
    h.events.some((e) =>
      e.type === 'INTERNAL_ACCOUNT.BALANCE_UPDATED' && e.aggregateId === usd && e.data.change === -10_000
    ),
  ).toBe(true);
});

test('a lookup and a quote read the accounts service once each, the execution once (the limits)', async () => {
  h.accounts.calls.length = 0;
  const { lookupId } = await h.lookup.lookupExternalAccount({
    accountId: mxnAccount,
    customerId: customer,
    senderUmaAddress: '',
  }, asPlatform);
  expect(h.accounts.calls).toEqual(['getPaymentParties']);
  h.accounts.calls.length = 0;
  const { quote } = await h.quotes.createQuote({ ...wire(quoteBody(10_000, { lookupId })) }, asPlatform);
  expect(h.accounts.calls).toEqual(['getPaymentParties']);
  h.accounts.calls.length = 0;
  await h.quotes.executeQuote({ quoteId: quote!.id }, asPlatform);
  expect(h.accounts.calls).toEqual(['getPlatformConfig']);
});

test('many concurrent executions of one quote give one transaction and one debit', async () => {
  const { quote } = await h.quotes.createQuote({ ...wire(quoteBody(2_500)) }, asPlatform);
  const before = (await h.ledger.getBalances({ accountIds: [usd] }, asPlatform)).balances[0].available;
  const results = await Promise.allSettled(
    Array.from({ length: 20 }, () => h.quotes.executeQuote({ quoteId: quote!.id }, asPlatform)),
  );
  const ok = results.filter((r) => r.status === 'fulfilled');
  expect(ok).toHaveLength(1);
  for (const r of results.filter((x): x is PromiseRejectedResult => x.status === 'rejected')) {
    expect([(r.reason as AppError).code, (r.reason as AppError).details?.reason]).toEqual([
      'CONFLICT',
      'QUOTE_ALREADY_EXECUTED',
    ]);
  }
  expect((await h.ledger.getBalances({ accountIds: [usd] }, asPlatform)).balances[0].available).toBe(before - 2_500);
  const page = await h.transactions.listTransactions({ limit: 100, customerId: customer }, asPlatform);
  expect(page.transactions.filter((t) => t.quoteId === quote!.id)).toHaveLength(1);
});

test('a repeat with the winning Idempotency-Key answers the quote; without it 409 QUOTE_ALREADY_EXECUTED', async () => {
  const { quote } = await h.quotes.createQuote({ ...wire(quoteBody(1_000)) }, asPlatform);
  await h.quotes.executeQuote({ quoteId: quote!.id, idempotencyKey: 'exec-1' }, asPlatform);
  const again = await h.quotes.executeQuote({ quoteId: quote!.id, idempotencyKey: 'exec-1' }, asPlatform);
  expect(again.quote!.transactionId).toBe(quote!.transactionId);
  const err = await failure(h.quotes.executeQuote({ quoteId: quote!.id }, asPlatform));
  expect([err.code, err.details?.reason]).toEqual(['CONFLICT', 'QUOTE_ALREADY_EXECUTED']);
});

test('creating a quote with the same Idempotency-Key and body answers the first quote', async () => {
  const first = await h.quotes.createQuote({ ...wire(quoteBody(1_200)), idempotencyKey: 'q-1' }, asPlatform);
  const second = await h.quotes.createQuote({ ...wire(quoteBody(1_200)), idempotencyKey: 'q-1' }, asPlatform);
  expect(second.quote!.id).toBe(first.quote!.id);
  const err = await failure(h.quotes.createQuote({ ...wire(quoteBody(1_300)), idempotencyKey: 'q-1' }, asPlatform));
  expect(err.code).toBe('IDEMPOTENCY_KEY_REUSED');
});

test('immediatelyExecute creates and executes in one call', async () => {
  const { quote } = await h.quotes.createQuote({ ...wire(quoteBody(1_500, { immediatelyExecute: true })) }, asPlatform);
  expect(quote!.status).toBe('PROCESSING');
});

test('a RECEIVING lock delivers exactly the locked amount', async () => {
  const { quote } = await h.quotes.createQuote(
    { ...wire(quoteBody(172_500, { lockedCurrencySide: 'RECEIVING' })) },
    asPlatform,
  );
  expect([quote!.totalReceivingAmount, quote!.totalSendingAmount, quote!.feesIncluded]).toEqual([172_500, 10_010, 10]);
});

test('a platform fee override (USD source) is included in the fees', async () => {
  const body = quoteBody(10_000, {
    platformFeeOverride: { platformFixedFee: { amount: 50, currency: 'USD' }, platformVariableFeeBps: 30 },
  });
  const { quote } = await h.quotes.createQuote(wire(body), asPlatform);
  expect([quote!.feesIncluded, quote!.platformFeesIncluded, quote!.totalReceivingAmount]).toEqual([90, 80, 170_947]);
});

test("another platform's quote is QUOTE_NOT_FOUND", async () => {
  const { quote } = await h.quotes.createQuote({ ...wire(quoteBody(1_000)) }, asPlatform);
  const err = await failure(
    h.quotes.getQuote({ quoteId: quote!.id }, { platformId: 'Platform:22222222-2222-4222-8222-222222222222' }),
  );
  expect(err.code).toBe('QUOTE_NOT_FOUND');
});

test('platform fees set by PATCH /config are charged on USD cross-currency quotes, to the platform', async () => {
  const platform = 'Platform:33333333-3333-4333-8333-333333333333';
  const as = { platformId: platform };
  h.accounts.configure(platform, {
    feeConfigs: [{
      feeType: 'CROSS_CURRENCY_TRANSACTION',
      sourceCurrency: 'USD',
      variableFeeBps: 25,
      fixedFee: { amount: 30, currency: 'USD' },
    }],
  });
  const platformUsd = h.accounts.addInternalAccount(platform, { currency: 'USD' });
  const payer = h.accounts.addInternalAccount(platform, { currency: 'USD' });
  const payee = h.accounts.addExternalAccount(platform, { currency: 'MXN', accountInfo: mxnAccountInfo() });
  await h.sandbox.fundInternalAccount({ accountId: payer, ...wire({ amount: 10_000 }) }, as);

  const { quote } = await h.quotes.createQuote({
    ...wire({
      source: { sourceType: 'ACCOUNT', accountId: payer },
      destination: { destinationType: 'ACCOUNT', accountId: payee },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10_000,
      immediatelyExecute: true,
    }),
  }, as);
  expect([quote!.feesIncluded, quote!.platformFeesIncluded]).toEqual([65, 55]);
  await eventually(
    async () => ((await h.transactions.getTransaction({ transactionId: quote!.transactionId }, as)).transaction!.status
        === 'COMPLETED'
      ? true
      : undefined),
  );
  const { transaction } = await h.transactions.getTransaction({ transactionId: quote!.transactionId }, as);
  expect([transaction!.fees, transaction!.platformFees]).toEqual([65, 55]);
  expect((await h.ledger.getBalances({ accountIds: [payer, platformUsd] }, as)).balances.map((b) => b.available))
    .toEqual([0, 55]);

  const { rates } = await h.quotes.listExchangeRates({ sourceCurrency: 'USD', destinationCurrencies: ['MXN'] }, as);
  expect(rates[0].fees).toEqual({ fixed: 30, total: 65 });
});
