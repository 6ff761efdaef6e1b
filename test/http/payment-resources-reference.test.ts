import { referenceProblems } from '../contract/reference-contract';
import { startTestSystem, type TestSystem } from '../system-harness';
import {
  accountQuote,
  externalAccount,
  FAST_SETTLEMENT,
  fund,
  payingCustomer,
  transactionWhen,
} from './payments-fixtures';

/**
 * Quotes, transactions and their payment instructions, at every step of the payments a platform
 * makes, validate against the reference's schemas for the operation that answered them.
 */
let sys: TestSystem;
let customerId: string;
let usd: string;
beforeAll(async () => {
  sys = await startTestSystem({ env: FAST_SETTLEMENT });
  ({ customerId, usdAccountId: usd } = await payingCustomer(sys));
  await fund(sys, usd, 1_000_000);
});
afterAll(async () => {
  await sys.stop();
});

const V = '/2025-10-13';
/** One payee per account type (the same account twice is a 409). */
const payees = new Map<string, Promise<string>>();
const payee = (type: Parameters<typeof externalAccount>[2] & string) => {
  if (!payees.has(type)) payees.set(type, externalAccount(sys, customerId, type));
  return payees.get(type)!;
};
async function valid(method: string, path: string, json?: unknown) {
  const res = await sys.api(path, { method, ...(json !== undefined ? { json } : {}) });
  expect(res.status).toBeLessThan(300);
  expect(referenceProblems(method, `${V}${path.split('?')[0]}`, res.status, res.body)).toEqual([]);
  return res.body;
}

test.each(
  ['MXN_ACCOUNT', 'EUR_ACCOUNT', 'USD_ACCOUNT', 'BRL_ACCOUNT', 'INR_ACCOUNT', 'SOLANA_WALLET', 'SPARK_WALLET'] as const,
)(
  'an account-funded payment to a %s: the quote, its execution and the transaction at each step',
  async (type) => {
    const quote = await valid('POST', '/quotes', accountQuote(usd, await payee(type), 10_000));
    await valid('GET', `/quotes/${quote.id}`);
    await valid('POST', `/quotes/${quote.id}/execute`);
    await valid('GET', `/transactions/${quote.transactionId}`);
    await transactionWhen(sys, quote.transactionId, (t) => t.status === 'COMPLETED');
    const done = await valid('GET', `/transactions/${quote.transactionId}`);
    expect(done.status).toBe('COMPLETED');
  },
);

/**
 * Every fiat currency of the reference's PaymentAccountType (what a platform can be paid in) but
 * COP, whose variant is a hosted payment link the sandbox has not; and a stablecoin.
 */
const FUNDING = [
  'USD',
  'EUR',
  'DKK',
  'MXN',
  'BRL',
  'GBP',
  'CAD',
  'INR',
  'NGN',
  'PHP',
  'HKD',
  'MYR',
  'THB',
  'VND',
  'SGD',
  'IDR',
  'ARS',
];

test.each([...FUNDING.map((c) => [c, undefined] as const), ['USDC', 'SOLANA'] as const])(
  'a realtime-funded quote in %s: its payment instructions are '
    + "the reference's variant for it, and the payment completes",
  async (currency, cryptoNetwork) => {
    const quote = await valid('POST', '/quotes', {
      ...accountQuote(usd, await payee('USD_ACCOUNT'), 10_000, { lockedCurrencySide: 'RECEIVING' }),
      source: { sourceType: 'REALTIME_FUNDING', currency, customerId, ...(cryptoNetwork ? { cryptoNetwork } : {}) },
    });
    expect(quote.paymentInstructions).toHaveLength(1);
    expect(quote.paymentInstructions[0].accountOrWalletInfo.reference).toMatch(/^PAY-/);
    if (cryptoNetwork) expect(quote.source.cryptoNetwork).toBe(cryptoNetwork);
    await valid('POST', '/sandbox/send', { quoteId: quote.id, currencyCode: currency });
    await transactionWhen(sys, quote.transactionId, (t) => t.status === 'COMPLETED');
    await valid('GET', `/transactions/${quote.transactionId}`);
  },
);

test.each(['COP', 'KES', 'ZAR', 'AED'])(
  'realtime funding in %s (payout-only, or no collection account) is 400 INVALID_CURRENCY',
  async (currency) => {
    const res = await sys.api('/quotes', {
      method: 'POST',
      json: {
        ...accountQuote(usd, await payee('USD_ACCOUNT'), 10_000, { lockedCurrencySide: 'RECEIVING' }),
        source: { sourceType: 'REALTIME_FUNDING', currency, customerId },
      },
    });
    expect([res.status, res.body.code]).toEqual([400, 'INVALID_CURRENCY']);
  },
);

test('same-currency transfers and the transaction list', async () => {
  const bank = await payee('USD_ACCOUNT');
  await valid('POST', '/transfer-out', { source: { accountId: usd }, destination: { accountId: bank }, amount: 1_000 });
  await valid('POST', '/transfer-in', { source: { accountId: bank }, destination: { accountId: usd }, amount: 1_000 });
  await valid('GET', `/transactions?customerId=${customerId}`);
  await valid('GET', `/quotes?customerId=${customerId}`);
});
