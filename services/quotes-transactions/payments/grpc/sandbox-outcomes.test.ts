import { wire } from '../../../../test/fixtures/wire';
import { AppError } from '../../../../lib/errors';
import { systemAccount } from '../../ledger/domain/ledger-postings';
import { balanceRecordsOf } from '../../ledger/store/ledger-document-store';
import {
  asPlatform,
  eventually,
  PLATFORM,
  solanaWalletInfo,
  type PaymentsHarness,
} from '../../test-fixtures/payments-harness';
import { startFundedPayer } from '../../test-fixtures/funded-payer';

let h: PaymentsHarness;
let customer: string;
let usd: string;
let mxnAccount: string;

beforeAll(async () => ({ h, customer, usd, mxnAccount } = await startFundedPayer(10_000_000)));
afterAll(async () => {
  await h.stop();
});

const balance = async (id: string) =>
  (await h.ledger.getBalances({ accountIds: [id] }, asPlatform)).balances[0].available;
const transaction = async (id: string) =>
  (await h.transactions.getTransaction({ transactionId: id }, asPlatform)).transaction!;
const settled = (id: string, done: (t: Record<string, any>) => boolean) =>
  eventually(async () => {
    const t = await transaction(id);
    return done(t) ? t : undefined;
  });
/** What the platform's funds-in-transit account holds (summed over its shards). */
const inTransit = async (currency: string) =>
  (await h.store.collection('ledger_balances').find({})).flatMap(balanceRecordsOf)
    .filter((b) => b.account === systemAccount('transit', currency, PLATFORM)).reduce((sum, b) => sum + b.available, 0);
const kindsOf = async (id: string) => {
  await h.flushEvents();
  return h.events.filter((e) => e.aggregateId === id).map((e) => e.type);
};

async function pay(amount: number, destination = mxnAccount) {
  const { quote } = await h.quotes.createQuote({
    ...wire({
      source: { sourceType: 'ACCOUNT', accountId: usd },
      destination: { destinationType: 'ACCOUNT', accountId: destination },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: amount,
    }),
  }, asPlatform);
  await h.quotes.executeQuote({ quoteId: quote!.id }, asPlatform);
  return quote!.transactionId as string;
}

test.each([
  [10_901, 'ACCOUNT_INVALID'],
  [10_902, 'ACCOUNT_CANNOT_RECEIVE'],
  [10_903, 'LIMIT_EXCEEDED'],
  [10_904, 'PAYOUT_RETURNED'],
  [10_905, 'QUOTE_EXECUTION_FAILED'],
])('amount %d fails the payout with %s and refunds the debit', async (amount, reason) => {
  const before = await balance(usd);
  const id = await pay(amount);
  expect(await balance(usd)).toBe(before - amount);
  const t = await settled(id, (x) => x.refund?.status === 'COMPLETED');
  expect(t).toMatchObject({
    status: 'FAILED',
    failureReason: reason,
    refund: { status: 'COMPLETED', reason: 'TRANSACTION_FAILED' },
  });
  expect(await balance(usd)).toBe(before);
  expect(await kindsOf(id)).toEqual([
    'OUTGOING_PAYMENT.PENDING',
    'OUTGOING_PAYMENT.PROCESSING',
    'OUTGOING_PAYMENT.FAILED',
    'OUTGOING_PAYMENT.REFUND_PENDING',
    'OUTGOING_PAYMENT.REFUND_COMPLETED',
  ]);
  expect(Object.values(await h.balanceSums()).every((sum) => sum === 0)).toBe(true);
});

test('an amount ending in 906 is held for compliance review (pendingReason), then settles', async () => {
  const id = await pay(10_906);
  const t = await settled(id, (x) => x.status === 'COMPLETED');
  expect(t.pendingReason).toBeUndefined();
  // The review lasts one (20 ms) step: its event is the reliable witness, not a poll.
  await h.flushEvents();
  const reviewed = h.events.filter((e) => e.aggregateId === id && e.data.pendingReason === 'COMPLIANCE_REVIEW');
  expect(reviewed.map((e) => e.type)).toEqual(['OUTGOING_PAYMENT.PROCESSING']);
});

test('an amount ending in 907 is rejected by compliance and refunded', async () => {
  const id = await pay(10_907);
  const t = await settled(id, (x) => x.refund?.status === 'COMPLETED');
  expect(t).toMatchObject({ status: 'FAILED', failureReason: 'COMPLIANCE_REJECTED' });
});

test('a crypto payout carries onChainTransaction on its destination once settled', async () => {
  const wallet = h.accounts.addExternalAccount(PLATFORM, {
    currency: 'USDC',
    customerId: customer,
    accountInfo: solanaWalletInfo(),
  });
  const id = await pay(20_000, wallet);
  expect((await transaction(id)).destination!.onChainTransaction).toBeUndefined();
  const t = await settled(id, (x) => x.status === 'COMPLETED');
  expect(t.destination).toMatchObject({
    accountId: wallet,
    onChainTransaction: { network: 'SOLANA', transactionHash: expect.stringMatching(/^[0-9a-f]{64}$/) },
  });
  // 200.00 USD less 10 bps and the sandbox's Solana network fee (0.001 USD, rounded up to one cent).
  expect(t.receivedAmount).toEqual({
    amount: 199_790_000,
    currency: { code: 'USDC', name: 'USD Coin', symbol: '', decimals: 6 },
  });
});

describe('realtime funding and /sandbox/send', () => {
  async function fundedQuote(amount = 10_000, extra: Record<string, unknown> = {}) {
    const { quote } = await h.quotes.createQuote({
      ...wire({
        source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: customer, ...extra },
        destination: { destinationType: 'ACCOUNT', accountId: mxnAccount },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: amount,
      }),
    }, asPlatform);
    return quote!;
  }

  test('the quote carries payment instructions; sending the funds starts the payment, which settles', async () => {
    const quote = await fundedQuote();
    expect(quote.paymentInstructions[0].accountOrWalletInfo).toMatchObject({
      accountType: 'USD_ACCOUNT',
      reference: expect.stringMatching(/^PAY-[0-9A-F]{12}$/),
    });
    const executing = await h.quotes.executeQuote({ quoteId: quote.id }, asPlatform).catch((e) => e);
    expect(executing.code).toBe('INVALID_INPUT');
    const { transaction: sent } = await h.sandbox.simulateSend({
      ...wire({ quoteId: quote.id, currencyCode: 'USD', currencyAmount: 10_000 }),
    }, asPlatform);
    expect(sent).toMatchObject({ status: 'PROCESSING', source: { sourceType: 'REALTIME_FUNDING', currency: 'USD' } });
    await settled(quote.transactionId, (x) => x.status === 'COMPLETED');
    const again = await h.sandbox.simulateSend({ ...wire({ quoteId: quote.id, currencyCode: 'USD' }) }, asPlatform)
      .catch((e) => e);
    expect([again.code, again.details?.reason]).toEqual(['CONFLICT', 'QUOTE_ALREADY_EXECUTED']);
  });

  test.each([
    [{ currencyCode: 'EUR' }, 'INVALID_CURRENCY'],
    [{ currencyCode: 'USD', currencyAmount: 9_999 }, 'INVALID_AMOUNT'],
    [{ currencyCode: 'USD', quoteId: 'Quote:99999999-9999-4999-8999-999999999999' }, 'QUOTE_NOT_FOUND'],
  ])('sending %o is %s', async (extra, code) => {
    const quote = await fundedQuote();
    const err = await h.sandbox.simulateSend({ ...wire({ quoteId: quote.id, ...extra }) }, asPlatform).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe(code);
  });

  test('a stablecoin funding leg carries onChainTransaction on its source', async () => {
    const quote = await fundedQuote(10_000_000, { currency: 'USDC', cryptoNetwork: 'BASE' });
    expect(quote.paymentInstructions[0].accountOrWalletInfo).toMatchObject({
      accountType: 'BASE_WALLET',
      assetType: 'USDC',
    });
    // The quote's source says the network the customer deposits on (the reference's RealtimeFundingQuoteSource).
    expect(quote.source).toMatchObject({ sourceType: 'REALTIME_FUNDING', currency: 'USDC', cryptoNetwork: 'BASE' });
    const { transaction: t } = await h.sandbox.simulateSend(
      { ...wire({ quoteId: quote.id, currencyCode: 'USDC' }) },
      asPlatform,
    );
    expect(t!.source!.onChainTransaction).toEqual({
      network: 'BASE',
      transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
  });
});

describe('/sandbox/uma/receive', () => {
  const receive = async (sender: string, amount = 5_000) =>
    (await h.sandbox.simulateUmaReceive({
      ...wire({
        senderUmaAddress: sender,
        customerId: customer,
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: amount,
      }),
    }, asPlatform)).transaction!;

  test('a payment from $success… is credited to the customer', async () => {
    const before = await balance(usd);
    const t = await receive('$success.usd@sandbox.grid.uma.money');
    expect(t).toMatchObject({
      type: 'INCOMING',
      direction: 'CREDIT',
      status: 'PENDING',
      destination: { accountId: usd },
      receivedAmount: { amount: 5_000 },
    });
    const done = await settled(t.id, (x) => x.status === 'COMPLETED');
    expect(done.reconciliationInstructions).toEqual({
      reference: expect.any(String),
      transactionHash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(await balance(usd)).toBe(before + 5_000);
    expect(await kindsOf(t.id)).toEqual(['INCOMING_PAYMENT.PENDING', 'INCOMING_PAYMENT.COMPLETED']);
  });

  test('a payment from $refund… fails and is refunded: REFUND_PENDING then REFUND_COMPLETED', async () => {
    const before = await balance(usd);
    const t = await receive('$refund.usd@sandbox.grid.uma.money');
    const done = await settled(t.id, (x) => x.refund?.status === 'COMPLETED');
    expect(done).toMatchObject({
      status: 'REFUNDED',
      failureReason: 'ACCOUNT_CANNOT_RECEIVE',
      refund: { reference: expect.stringMatching(/-REFUND$/), status: 'COMPLETED' },
    });
    expect(await balance(usd)).toBe(before);
    expect(await kindsOf(t.id)).toEqual([
      'INCOMING_PAYMENT.PENDING',
      'INCOMING_PAYMENT.FAILED',
      'INCOMING_PAYMENT.REFUND_PENDING',
      'INCOMING_PAYMENT.REFUND_COMPLETED',
    ]);
    expect(Object.values(await h.balanceSums()).every((sum) => sum === 0)).toBe(true);
  });

  test('a payment from $refundfail… fails, its refund fails (REFUND_FAILED); a retry returns it once', async () => {
    const before = await balance(usd);
    const t = await receive('$refundfail.usd@sandbox.grid.uma.money');
    const done = await settled(t.id, (x) => x.refund?.status === 'COMPLETED');
    expect(done).toMatchObject({
      status: 'REJECTED',
      failureReason: 'COMPLIANCE_REJECTED',
      refund: { settledAt: expect.any(String) },
    });
    expect(await balance(usd)).toBe(before);
    expect(await kindsOf(t.id)).toEqual([
      'INCOMING_PAYMENT.PENDING',
      'INCOMING_PAYMENT.FAILED',
      'INCOMING_PAYMENT.REFUND_PENDING',
      'INCOMING_PAYMENT.REFUND_FAILED',
      'INCOMING_PAYMENT.REFUND_PENDING',
      'INCOMING_PAYMENT.REFUND_COMPLETED',
    ]);
    // The failed attempt (a transient state, so read from its event) left the payment FAILED, its refund FAILED.
    const failedAttempt = h.events.find((e) => e.aggregateId === t.id && e.type === 'INCOMING_PAYMENT.REFUND_FAILED')!;
    expect(failedAttempt.data).toMatchObject({ status: 'FAILED', refund: { status: 'FAILED' } });
    expect(await inTransit('USD')).toBe(0);
    expect(Object.values(await h.balanceSums()).every((sum) => sum === 0)).toBe(true);
  });

  test('an unknown receiver is USER_NOT_FOUND; a currency the customer does not hold is INVALID_CURRENCY', async () => {
    const byUma = await h.sandbox.simulateUmaReceive({
      ...wire({
        senderUmaAddress: '$a@b.com',
        receiverUmaAddress: '$nobody@sandbox.example.com',
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 1,
      }),
    }, asPlatform).catch((e) => e);
    expect(byUma.code).toBe('USER_NOT_FOUND');
    const eur = await h.sandbox.simulateUmaReceive({
      ...wire({
        senderUmaAddress: '$a@b.com',
        receiverUmaAddress: '$ana@sandbox.example.com',
        receivingCurrencyCode: 'EUR',
        receivingCurrencyAmount: 1,
      }),
    }, asPlatform).catch((e) => e);
    expect(eur.code).toBe('INVALID_CURRENCY');
  });
});

test('funding: INVALID_AMOUNT beyond the sandbox maximum, NOT_FOUND for an unknown account', async () => {
  const big = await h.sandbox.fundInternalAccount({ accountId: usd, ...wire({ amount: 100_000_000_001 }) }, asPlatform)
    .catch((e) => e);
  expect(big.code).toBe('INVALID_AMOUNT');
  const missing = await h.sandbox.fundInternalAccount({
    accountId: 'InternalAccount:99999999-9999-4999-8999-999999999999',
    ...wire({ amount: 1 }),
  }, asPlatform).catch((e) => e);
  expect(missing.code).toBe('REFERENCE_NOT_FOUND');
});
