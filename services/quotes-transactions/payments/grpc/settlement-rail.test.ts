import { randomBytes } from 'node:crypto';
import { wire } from '../../../../test/fixtures/wire';
import {
  ReportSettlementOutcomeRequest_Outcome as Outcome,
  SettlementRailServiceService,
} from '../../../../gen/quotes_transactions/v1/settlement_rail';
import type { AppError } from '../../../../lib/errors';
import { createServiceClient } from '../../../../lib/grpc/grpc-client';
import { readPaymentsConfig } from '../payments-module';
import {
  asPlatform,
  eventually,
  OTHER_PLATFORM,
  PLATFORM,
  startPaymentsHarness,
  usdAccountInfo,
  type PaymentsHarness,
} from '../../test-fixtures/payments-harness';

/**
 * GRID_MODE=production: the operator's rail settles payments. Nothing but its reports moves a
 * payment handed to it; the ledger is checked exactly at each step. Funds arrive as a real
 * platform's would: a transfer-in the rail reports settled (the sandbox's fund route is refused).
 */
let h: PaymentsHarness;
let customer: string;
let usd: string;
let usdBank: string;

const key = () => randomBytes(32).toString('hex');
const PRODUCTION = {
  GRID_MODE: 'production',
  SANDBOX_SETTLEMENT_STEP_MS: undefined,
  STABLECOIN_SECRET_KEY: key(),
  CARDS_DATA_KEY: key(),
  STABLECOIN_PROVIDER: 'brale',
};

beforeAll(async () => {
  h = await startPaymentsHarness(PRODUCTION);
  customer = h.accounts.addCustomer(PLATFORM, { platformCustomerId: 'rail-1' });
  usd = h.accounts.addInternalAccount(PLATFORM, { currency: 'USD', customerId: customer });
  usdBank = h.accounts.addExternalAccount(PLATFORM, {
    currency: 'USD',
    customerId: customer,
    accountInfo: usdAccountInfo(),
  });
});
afterAll(async () => {
  await h?.stop();
});

const balance = async (id: string) =>
  (await h.ledger.getBalances({ accountIds: [id] }, asPlatform)).balances[0]?.available ?? 0;
const get = async (id: string) => (await h.transactions.getTransaction({ transactionId: id }, asPlatform)).transaction!;
const until = (id: string, done: (t: Record<string, any>) => boolean) =>
  eventually(async () => {
    const t = await get(id);
    return done(t) ? t : undefined;
  });
const failure = async (call: Promise<unknown>) => (await call.then(() => undefined, (e: unknown) => e)) as AppError;
const report = (
  transactionId: string,
  outcome: Outcome,
  extra: { failureReason?: string; railReference?: string } = {},
  caller = asPlatform,
) => h.rail.reportSettlementOutcome({ transactionId, outcome, ...extra }, caller);
const submitted = (id: string) =>
  eventually(async () => h.events.find((e) => e.type === 'SETTLEMENT.SUBMITTED' && e.aggregateId === id));
const transferOut = async (amount: number) =>
  (await h.quotes.createTransferOut({
    ...wire({ source: { accountId: usd }, destination: { accountId: usdBank, paymentRail: 'ACH' }, amount }),
  }, asPlatform)).transaction!;

test('production chooses the operator rail and refuses the timer simulator, naming the setting', () => {
  expect(readPaymentsConfig({ GRID_MODE: 'production' }).SETTLEMENT_RAIL).toBe('operator');
  expect(readPaymentsConfig({}).SETTLEMENT_RAIL).toBe('sandbox');
  expect(() => readPaymentsConfig({ GRID_MODE: 'production', SETTLEMENT_RAIL: 'sandbox' })).toThrow(
    /SETTLEMENT_RAIL is sandbox, a simulator, which GRID_MODE=production refuses/,
  );
  expect(readPaymentsConfig({ SETTLEMENT_RAIL: 'operator' }).SETTLEMENT_RAIL).toBe('operator');
});

test('the sandbox fund route is refused in production', async () => {
  expect((await failure(h.sandbox.fundInternalAccount({ accountId: usd, ...wire({ amount: 100 }) }, asPlatform))).code)
    .toBe('FORBIDDEN');
});

test('a transfer-in stays PENDING on the rail until the rail reports it settled, then credits exactly', async () => {
  const { transaction: t } = await h.quotes.createTransferIn({
    ...wire({ source: { accountId: usdBank }, destination: { accountId: usd }, amount: 100_000 }),
  }, asPlatform);
  const event = await submitted(t!.id);
  expect(event.platformId).toBe(PLATFORM);
  expect(event.data).toMatchObject({
    transactionId: t!.id,
    platformId: PLATFORM,
    type: 'INCOMING',
    sent: { amount: 100_000, currency: 'USD' },
    source: { accountId: usdBank },
    destination: { accountId: usd },
  });
  expect((await get(t!.id)).status).toBe('PENDING');
  expect(await balance(usd)).toBe(0);
  const done = await report(t!.id, Outcome.COMPLETED, { railReference: 'ACH-TRACE-0001' });
  expect(done).toMatchObject({ applied: true, transaction: { status: 'COMPLETED' } });
  expect(await balance(usd)).toBe(100_000);
});

test('an outgoing payment stays PROCESSING through reported stages, completes on success, ledger exact', async () => {
  const before = await balance(usd);
  const t = await transferOut(12_550);
  expect(t.status).toBe('PROCESSING');
  expect(await balance(usd)).toBe(before - 12_550);
  const event = await submitted(t.id);
  expect(event.data).toMatchObject({
    type: 'OUTGOING',
    paymentRail: 'ACH',
    destination: { accountId: usdBank },
    transaction: { id: t.id, status: 'PROCESSING' },
  });
  // No timer moves it: several worker passes later it is where the submission left it.
  await new Promise((r) => setTimeout(r, 300));
  expect(await get(t.id)).toMatchObject({ status: 'PROCESSING' });

  expect((await report(t.id, Outcome.IN_REVIEW)).applied).toBe(true);
  expect(await get(t.id)).toMatchObject({ status: 'PROCESSING' });
  expect((await report(t.id, Outcome.SENT)).applied).toBe(true);
  expect((await report(t.id, Outcome.IN_REVIEW)).applied).toBe(false); // late: it is past review
  const done = await report(t.id, Outcome.COMPLETED, { railReference: 'ACH-TRACE-0002' });
  expect(done).toMatchObject({ applied: true, transaction: { status: 'COMPLETED' } });
  expect(await balance(usd)).toBe(before - 12_550);
  expect(Object.values(await h.balanceSums()).every((sum) => sum === 0)).toBe(true);
  await h.flushEvents();
  expect(h.events.filter((e) => e.aggregateId === t.id && e.type === 'OUTGOING_PAYMENT.COMPLETED')).toHaveLength(1);
});

test('a failure report fails the payment, returns the money; duplicate, late, contrary ones: no change', async () => {
  const before = await balance(usd);
  const t = await transferOut(4_000);
  await submitted(t.id);
  const failed = await report(t.id, Outcome.FAILED, { failureReason: 'PAYOUT_RETURNED' });
  expect(failed).toMatchObject({ applied: true, transaction: { status: 'FAILED', failureReason: 'PAYOUT_RETURNED' } });
  await until(t.id, (x) => x.refund?.status === 'COMPLETED');
  expect(await balance(usd)).toBe(before);

  expect((await report(t.id, Outcome.FAILED, { failureReason: 'PAYOUT_RETURNED' })).applied).toBe(false);
  expect((await report(t.id, Outcome.COMPLETED)).applied).toBe(false);
  expect((await report(t.id, Outcome.SENT)).applied).toBe(false);
  expect(await get(t.id)).toMatchObject({ status: 'FAILED', refund: { status: 'COMPLETED' } });
  expect(await balance(usd)).toBe(before);
});

test('concurrent success reports move the money once', async () => {
  const before = await balance(usd);
  const t = await transferOut(2_500);
  await submitted(t.id);
  const answers = await Promise.all(Array.from({ length: 8 }, () => report(t.id, Outcome.COMPLETED)));
  expect(answers.filter((a) => a.applied)).toHaveLength(1);
  expect(answers.every((a) => a.transaction!.status === 'COMPLETED')).toBe(true);
  expect(await balance(usd)).toBe(before - 2_500);
  await h.flushEvents();
  expect(h.events.filter((e) => e.aggregateId === t.id && e.type === 'OUTGOING_PAYMENT.COMPLETED')).toHaveLength(1);
});

test('a payment handed to the rail is no longer cancellable', async () => {
  const t = await transferOut(1_000);
  await submitted(t.id);
  expect((await failure(h.transactions.cancelTransaction({ transactionId: t.id }, asPlatform))).code).toBe(
    'TRANSACTION_NOT_CANCELLABLE',
  );
  await report(t.id, Outcome.COMPLETED);
});

test("refused: another platform's or unknown payment, a bad report, a caller without the internal token", async () => {
  const t = await transferOut(1_000);
  await submitted(t.id);
  expect((await failure(report(t.id, Outcome.COMPLETED, {}, { platformId: OTHER_PLATFORM }))).code).toBe(
    'TRANSACTION_NOT_FOUND',
  );
  expect((await failure(report('Transaction:00000000-0000-4000-8000-000000000000', Outcome.COMPLETED))).code).toBe(
    'TRANSACTION_NOT_FOUND',
  );
  const invalid = await failure(report(t.id, Outcome.FAILED, { failureReason: 'BECAUSE' }));
  expect(invalid.code).toBe('INVALID_INPUT');
  expect(invalid.details?.errors).toEqual([expect.objectContaining({ field: 'failureReason' })]);
  expect((await failure(report(t.id, Outcome.OUTCOME_UNSPECIFIED))).details?.errors).toEqual([
    expect.objectContaining({ field: 'outcome' }),
  ]);
  const stranger = createServiceClient(SettlementRailServiceService, h.address, { internalToken: 'not-the-token' });
  try {
    expect(
      (await failure(stranger.reportSettlementOutcome({ transactionId: t.id, outcome: Outcome.COMPLETED }, asPlatform)))
        .code,
    ).toBe('UNAUTHORIZED');
  } finally {
    stranger.close();
  }
  expect(await get(t.id)).toMatchObject({ status: 'PROCESSING' });
  await report(t.id, Outcome.COMPLETED);
});
