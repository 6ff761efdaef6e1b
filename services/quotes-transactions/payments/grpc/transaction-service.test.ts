import { wire } from '../../../../test/fixtures/wire';
import { AppError } from '../../../../lib/errors';
import {
  asPlatform,
  eventually,
  mxnAccountInfo,
  PLATFORM,
  startPaymentsHarness,
  usdAccountInfo,
  type PaymentsHarness,
} from '../../test-fixtures/payments-harness';

let h: PaymentsHarness;
let customer: string;
let usd: string;
let usdBank: string;
let mxnAccount: string;

beforeAll(async () => {
  h = await startPaymentsHarness({ SANDBOX_SETTLEMENT_STEP_MS: '300' });
  customer = h.accounts.addCustomer(PLATFORM, { umaAddress: '$ana@sandbox.example.com', platformCustomerId: 'ana-1' });
  usd = h.accounts.addInternalAccount(PLATFORM, { currency: 'USD', customerId: customer });
  usdBank = h.accounts.addExternalAccount(PLATFORM, {
    currency: 'USD',
    customerId: customer,
    accountInfo: usdAccountInfo(),
  });
  mxnAccount = h.accounts.addExternalAccount(PLATFORM, {
    currency: 'MXN',
    customerId: customer,
    accountInfo: mxnAccountInfo(),
  });
  await h.sandbox.fundInternalAccount({ accountId: usd, ...wire({ amount: 1_000_000 }) }, asPlatform);
});
afterAll(async () => {
  await h.stop();
});

const balance = async (id: string) =>
  (await h.ledger.getBalances({ accountIds: [id] }, asPlatform)).balances[0].available;
const get = async (id: string) => (await h.transactions.getTransaction({ transactionId: id }, asPlatform)).transaction!;
const until = (id: string, done: (t: Record<string, any>) => boolean) =>
  eventually(async () => {
    const t = await get(id);
    return done(t) ? t : undefined;
  });
const failure = async (call: Promise<unknown>) => (await call.then(() => undefined, (e: unknown) => e)) as AppError;
const transferOut = async (amount: number, key?: string) =>
  (await h.quotes.createTransferOut({
    ...wire({
      source: { accountId: usd },
      destination: { accountId: usdBank, paymentRail: 'ACH' },
      amount,
      remittanceInformation: 'rent',
    }),
    idempotencyKey: key,
  }, asPlatform)).transaction!;

test('transfer-out debits at once (PROCESSING), pays out later; the same Idempotency-Key answers again', async () => {
  const before = await balance(usd);
  const t = await transferOut(12_550, 'out-1');
  expect(t).toMatchObject({
    type: 'OUTGOING',
    status: 'PROCESSING',
    sentAmount: { amount: 12_550 },
    receivedAmount: { amount: 12_550 },
    fees: 0,
    paymentRail: 'ACH',
  });
  expect(await balance(usd)).toBe(before - 12_550);
  expect((await transferOut(12_550, 'out-1')).id).toBe(t.id);
  await until(t.id, (x) => x.status === 'COMPLETED');
  expect(await balance(usd)).toBe(before - 12_550);
});

test('transfer-in credits the internal account when it settles', async () => {
  const before = await balance(usd);
  const { transaction: t } = await h.quotes.createTransferIn({
    ...wire({ source: { accountId: usdBank }, destination: { accountId: usd }, amount: 7_000 }),
  }, asPlatform);
  expect(t).toMatchObject({ type: 'INCOMING', direction: 'CREDIT', status: 'PENDING' });
  expect(await balance(usd)).toBe(before);
  await until(t!.id, (x) => x.status === 'COMPLETED');
  expect(await balance(usd)).toBe(before + 7_000);
});

test('transfers are same-currency: INVALID_CURRENCY otherwise; INSUFFICIENT_BALANCE beyond the balance', async () => {
  const cross = await failure(
    h.quotes.createTransferOut({
      ...wire({ source: { accountId: usd }, destination: { accountId: mxnAccount }, amount: 100 }),
    }, asPlatform),
  );
  expect(cross.code).toBe('INVALID_CURRENCY');
  const tooMuch = await failure(
    h.quotes.createTransferOut({
      ...wire({ source: { accountId: usd }, destination: { accountId: usdBank }, amount: 900_000_000 }),
    }, asPlatform),
  );
  expect(tooMuch.code).toBe('TRANSACTION_SIZE_LIMIT_EXCEEDED');
  const poor = h.accounts.addInternalAccount(PLATFORM, { currency: 'USD', customerId: customer });
  const insufficient = await failure(
    h.quotes.createTransferOut({
      ...wire({ source: { accountId: poor }, destination: { accountId: usdBank }, amount: 100 }),
    }, asPlatform),
  );
  expect(insufficient.code).toBe('INSUFFICIENT_BALANCE');
});

test('a bank transfer cancels until sent: FAILED, USER_CANCELLATION refund; then 409 NOT_CANCELLABLE', async () => {
  const before = await balance(usd);
  const t = await transferOut(5_000);
  const { transaction: cancelled } = await h.transactions.cancelTransaction({
    transactionId: t.id,
    reason: 'after hours',
  }, asPlatform);
  expect(cancelled).toMatchObject({ status: 'FAILED', refund: { status: 'PENDING', reason: 'USER_CANCELLATION' } });
  await until(t.id, (x) => x.refund?.status === 'COMPLETED');
  expect(await balance(usd)).toBe(before);

  const late = await transferOut(5_000);
  await until(late.id, (x) => x.status === 'COMPLETED');
  const err = await failure(h.transactions.cancelTransaction({ transactionId: late.id }, asPlatform));
  expect(err.code).toBe('TRANSACTION_NOT_CANCELLABLE');
});

describe('incoming payments awaiting the platform ($approval… senders)', () => {
  const receive = async () =>
    (await h.sandbox.simulateUmaReceive({
      ...wire({
        senderUmaAddress: '$approval.usd@sandbox.grid.uma.money',
        customerId: customer,
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 3_000,
      }),
    }, asPlatform)).transaction!;

  test('approve lets it settle; approving again is 409 TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL', async () => {
    const before = await balance(usd);
    const t = await receive();
    await new Promise((r) => setTimeout(r, 400));
    expect((await get(t.id)).status).toBe('PENDING');
    await h.transactions.approveTransaction({ transactionId: t.id }, asPlatform);
    await until(t.id, (x) => x.status === 'COMPLETED');
    expect(await balance(usd)).toBe(before + 3_000);
    const again = await failure(h.transactions.approveTransaction({ transactionId: t.id }, asPlatform));
    expect(again.code).toBe('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL');
  });

  test('reject fails it and returns the funds to the sender: REJECTED once refunded', async () => {
    const t = await receive();
    const { transaction: rejected } = await h.transactions.rejectTransaction({
      transactionId: t.id,
      reason: 'RESTRICTED_JURISDICTION',
    }, asPlatform);
    expect(rejected).toMatchObject({ status: 'FAILED', refund: { status: 'PENDING' } });
    const returned = await until(t.id, (x) => x.refund?.status === 'COMPLETED');
    expect(returned.status).toBe('REJECTED');
  });

  test('an outgoing payment cannot be approved', async () => {
    const t = await transferOut(100);
    const err = await failure(h.transactions.approveTransaction({ transactionId: t.id }, asPlatform));
    expect(err.code).toBe('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL');
  });
});

test('confirm records the receipt delivery time (now, or the one given)', async () => {
  const t = await transferOut(100);
  const { transaction: confirmed } = await h.transactions.confirmReceiptDelivery({
    transactionId: t.id,
    receiptDeliveryConfirmedAt: '2025-08-15T14:31:00Z',
  }, asPlatform);
  expect(confirmed!.receiptDeliveryConfirmedAt).toBe('2025-08-15T14:31:00.000Z');
  const bad = await failure(
    h.transactions.confirmReceiptDelivery({ transactionId: t.id, receiptDeliveryConfirmedAt: 'yesterday' }, asPlatform),
  );
  expect(bad.code).toBe('INVALID_INPUT');
});

test('404 TRANSACTION_NOT_FOUND for unknown ids and other platforms', async () => {
  const t = await transferOut(100);
  const other = await failure(
    h.transactions.getTransaction({ transactionId: t.id }, {
      platformId: 'Platform:22222222-2222-4222-8222-222222222222',
    }),
  );
  expect(other.code).toBe('TRANSACTION_NOT_FOUND');
});

describe('listing', () => {
  let pager: string;
  let ids: string[];
  beforeAll(async () => {
    pager = h.accounts.addCustomer(PLATFORM, { platformCustomerId: 'pager-1' });
    const account = h.accounts.addInternalAccount(PLATFORM, { currency: 'USD', customerId: pager });
    const bank = h.accounts.addExternalAccount(PLATFORM, {
      currency: 'USD',
      customerId: pager,
      accountInfo: usdAccountInfo(),
    });
    await h.sandbox.fundInternalAccount({ accountId: account, ...wire({ amount: 100_000 }) }, asPlatform);
    ids = [];
    for (let i = 0; i < 5; i++) {
      ids.push(
        (await h.quotes.createTransferOut({
          ...wire({ source: { accountId: account }, destination: { accountId: bank }, amount: 100 + i }),
        }, asPlatform)).transaction!.id,
      );
      await new Promise((r) => setTimeout(r, 2));
    }
  });

  test('newest first, two per page, every one exactly once, with totalCount', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await h.transactions.listTransactions({ customerId: pager, limit: 2, cursor }, asPlatform);
      expect(page.totalCount).toBe(5);
      seen.push(...page.transactions.map((t) => t.id));
      cursor = page.hasMore ? page.nextCursor : undefined;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
  });

  test('filters: platformCustomerId, type, status, accountIdentifier, dates, sortOrder', async () => {
    const list = (q: Record<string, unknown>) =>
      h.transactions.listTransactions({ limit: 100, ...q }, asPlatform).then((p) => p.transactions.map((t) => t.id));
    expect(await list({ platformCustomerId: 'pager-1', sortOrder: 'asc' })).toEqual(ids);
    expect(await list({ platformCustomerId: 'pager-1', type: 'INCOMING' })).toEqual([]);
    expect(
      (await list({ platformCustomerId: 'pager-1', status: 'PROCESSING' })).length
        + (await list({ platformCustomerId: 'pager-1', status: 'COMPLETED' })).length,
    ).toBe(5);
    const first = await get(ids[0]);
    expect(await list({ receiverAccountIdentifier: first.destination!.accountId, customerId: pager })).toHaveLength(5);
    expect(await list({ accountIdentifier: first.source!.accountId, senderAccountIdentifier: first.source!.accountId }))
      .toHaveLength(5);
    expect(await list({ customerId: pager, startDate: '2000-01-01T00:00:00Z', endDate: '2000-12-31T00:00:00Z' }))
      .toEqual([]);
    expect(await list({ reference: first.reconciliationInstructions!.reference })).toEqual([ids[0]]);
  });

  test('bad filters are INVALID_INPUT naming each', async () => {
    const err = await failure(
      h.transactions.listTransactions({
        limit: 0,
        status: 'DONE',
        type: 'SIDEWAYS',
        sortOrder: 'up',
        startDate: 'soon',
      }, asPlatform),
    );
    expect((err.details!.errors as Array<{ field: string }>).map((e) => e.field)).toEqual([
      'status',
      'type',
      'sortOrder',
    ]);
    const cursor = await failure(h.transactions.listTransactions({ limit: 0, cursor: 'garbage' }, asPlatform));
    expect(cursor.code).toBe('INVALID_INPUT');
  });
});
