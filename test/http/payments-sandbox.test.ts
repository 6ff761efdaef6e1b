import { startTestSystem, type TestSystem } from '../system-harness';
import { accountQuote, balanceOf, externalAccount, fund, payingCustomer, transactionWhen } from './payments-fixtures';

let sys: TestSystem;
let customerId: string;
let usd: string;
let mxn: string;
let bank: string;

beforeAll(async () => {
  // Slow enough that a transfer can be cancelled before it is sent.
  sys = await startTestSystem({ env: { SANDBOX_SETTLEMENT_STEP_MS: '250', SETTLEMENT_POLL_MS: '10' } });
  ({ customerId, usdAccountId: usd } = await payingCustomer(sys, { umaAddress: '$sandbox.payer@sandbox.example.com' }));
  mxn = await externalAccount(sys, customerId, 'MXN_ACCOUNT');
  bank = await externalAccount(sys, customerId, 'USD_ACCOUNT');
  await fund(sys, usd, 1_000_000);
});
afterAll(async () => {
  await sys.stop();
});

async function paid(amount: number, destination = mxn) {
  const quote = await sys.api('/quotes', {
    method: 'POST',
    json: accountQuote(usd, destination, amount, { immediatelyExecute: true }),
  });
  expect(quote.status).toBe(201);
  return quote.body.transactionId as string;
}

test('an amount ending in 904 is paid, returned (PAYOUT_RETURNED) and refunded', async () => {
  const before = await balanceOf(sys, customerId, usd);
  const id = await paid(10_904);
  const t = await transactionWhen(sys, id, (x) => x.refund?.status === 'COMPLETED');
  expect(t).toMatchObject({
    status: 'FAILED',
    failureReason: 'PAYOUT_RETURNED',
    refund: { reason: 'TRANSACTION_FAILED', settledAt: expect.any(String) },
  });
  expect(await balanceOf(sys, customerId, usd)).toBe(before);
});

test('an amount ending in 906 waits in COMPLIANCE_REVIEW, then settles', async () => {
  const id = await paid(10_906);
  await transactionWhen(sys, id, (x) => x.pendingReason === 'COMPLIANCE_REVIEW');
  await transactionWhen(sys, id, (x) => x.status === 'COMPLETED');
});

test('a payout to a wallet reports its onChainTransaction once settled', async () => {
  const wallet = await externalAccount(sys, customerId, 'SOLANA_WALLET');
  const t = await transactionWhen(sys, await paid(20_000, wallet), (x) => x.status === 'COMPLETED');
  expect(t.destination.onChainTransaction).toEqual({ network: 'SOLANA', transactionHash: expect.any(String) });
});

test('a realtime-funded quote settles once /sandbox/send delivers the funds', async () => {
  const quote = await sys.api('/quotes', {
    method: 'POST',
    json: { ...accountQuote(usd, mxn, 5_000), source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId } },
  });
  expect(quote.body.paymentInstructions[0].accountOrWalletInfo).toMatchObject({
    accountType: 'USD_ACCOUNT',
    reference: expect.any(String),
  });
  const sent = await sys.api('/sandbox/send', {
    method: 'POST',
    json: { quoteId: quote.body.id, currencyCode: 'USD', currencyAmount: 5_000 },
  });
  expect(sent.status).toBe(200);
  expect(sent.body.status).toBe('PROCESSING');
  await transactionWhen(sys, quote.body.transactionId, (x) => x.status === 'COMPLETED');
});

test('a transfer-out can be cancelled before it is sent; the debit comes back', async () => {
  const before = await balanceOf(sys, customerId, usd);
  const out = await sys.api('/transfer-out', {
    method: 'POST',
    json: { source: { accountId: usd }, destination: { accountId: bank, paymentRail: 'ACH' }, amount: 2_000 },
  });
  const cancelled = await sys.api(`/transactions/${out.body.id}/cancel`, {
    method: 'POST',
    json: { reason: 'REQUESTED_AFTER_HOURS' },
  });
  expect(cancelled.status).toBe(200);
  expect(cancelled.body).toMatchObject({
    status: 'FAILED',
    refund: { status: 'PENDING', reason: 'USER_CANCELLATION' },
  });
  await transactionWhen(sys, out.body.id, (x) => x.refund?.status === 'COMPLETED');
  expect(await balanceOf(sys, customerId, usd)).toBe(before);
});

test('confirm records when the receipt was delivered', async () => {
  const out = await sys.api('/transfer-out', {
    method: 'POST',
    json: { source: { accountId: usd }, destination: { accountId: bank }, amount: 100 },
  });
  const res = await sys.api(`/transactions/${out.body.id}/confirm`, {
    method: 'POST',
    json: { receiptDeliveryConfirmedAt: '2025-08-15T14:31:00Z' },
  });
  expect(res.status).toBe(200);
  expect(res.body.receiptDeliveryConfirmedAt).toBe('2025-08-15T14:31:00.000Z');
  // Settled before the next test reads the same account's balance.
  await transactionWhen(sys, out.body.id, (x) => x.status === 'COMPLETED');
});

describe('/sandbox/uma/receive', () => {
  const receive = (sender: string) =>
    sys.api('/sandbox/uma/receive', {
      method: 'POST',
      json: {
        senderUmaAddress: sender,
        receiverUmaAddress: '$sandbox.payer@sandbox.example.com',
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 1_000,
      },
    });

  test("$success… credits the receiver's holding account, never its embedded wallet in that currency", async () => {
    const before = await balanceOf(sys, customerId, usd);
    const res = await receive('$success.usd@sandbox.grid.uma.money');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      type: 'INCOMING',
      status: 'PENDING',
      source: { sourceType: 'UMA_ADDRESS', umaAddress: '$success.usd@sandbox.grid.uma.money' },
    });
    expect(res.body.destination.accountId).toBe(usd);
    await transactionWhen(sys, res.body.id, (x) => x.status === 'COMPLETED');
    expect(await balanceOf(sys, customerId, usd)).toBe(before + 1_000);
  });

  test('$refund… fails and is refunded to the sender: REFUNDED', async () => {
    const res = await receive('$refund.usd@sandbox.grid.uma.money');
    const t = await transactionWhen(sys, res.body.id, (x) => x.refund?.status === 'COMPLETED');
    expect(t).toMatchObject({ status: 'REFUNDED', failureReason: 'ACCOUNT_CANNOT_RECEIVE' });
  });

  test('$refundfail…: the refund fails (REFUND_FAILED), the worker retries, funds go back: REJECTED', async () => {
    const before = await balanceOf(sys, customerId, usd);
    const res = await receive('$refundfail.usd@sandbox.grid.uma.money');
    const failed = await transactionWhen(sys, res.body.id, (x) => x.refund?.status === 'FAILED');
    expect(failed).toMatchObject({ status: 'FAILED', failureReason: 'COMPLIANCE_REJECTED' });
    const returned = await transactionWhen(sys, res.body.id, (x) => x.refund?.status === 'COMPLETED');
    expect(returned).toMatchObject({ status: 'REJECTED', refund: { settledAt: expect.any(String) } });
    expect(await balanceOf(sys, customerId, usd)).toBe(before);
  });

  test('$approval… waits for the platform: approve lets it settle', async () => {
    const res = await receive('$approval.usd@sandbox.grid.uma.money');
    const approved = await sys.api(`/transactions/${res.body.id}/approve`, { method: 'POST' });
    expect(approved.status).toBe(200);
    await transactionWhen(sys, res.body.id, (x) => x.status === 'COMPLETED');
  });

  test('$approval… then reject: FAILED, then REJECTED once refunded to the sender', async () => {
    const res = await receive('$approval.usd@sandbox.grid.uma.money');
    const rejected = await sys.api(`/transactions/${res.body.id}/reject`, {
      method: 'POST',
      json: { reason: 'RESTRICTED_JURISDICTION' },
    });
    expect(rejected.body.status).toBe('FAILED');
    const returned = await transactionWhen(sys, res.body.id, (x) => x.refund?.status === 'COMPLETED');
    expect(returned.status).toBe('REJECTED');
    expect((await sys.api(`/transactions?status=REJECTED&type=INCOMING`)).body.data.map((t: { id: string }) => t.id))
      .toContain(res.body.id);
  });
});
