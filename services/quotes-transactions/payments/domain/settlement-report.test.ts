import type { Payment } from './payment';
import { railSubmission, reportedChange, reportProblems } from './settlement-report';

const now = new Date('2026-11-26T10:00:00.000Z');
const timing = { stepMs: 0 };
const usd = { code: 'USD', decimals: 2 };
/**
 * An outgoing payment handed to the operator's rail, its amount debited into transit (only the members the rules read).
 */
const handed = (over: Partial<Payment> = {}): Payment => ({
  id: 'Transaction:1',
  platformId: 'Platform:1',
  type: 'OUTGOING',
  status: 'PROCESSING',
  stage: 'SUBMITTED',
  reference: 'REF-1',
  source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:1', accountKind: 'INTERNAL', currency: 'USD' },
  destination: {
    destinationType: 'ACCOUNT',
    accountId: 'ExternalAccount:1',
    accountKind: 'EXTERNAL',
    currency: 'USD',
    paymentRail: 'ACH',
  },
  sent: { amount: 100, currency: usd },
  received: { amount: 100, currency: usd },
  rail: { submittedAt: now.toISOString() },
  appliedSteps: ['debit'],
  version: 3,
  ...over,
} as unknown as Payment);

test('handing over records the submission with its event and stops the timer', () => {
  expect(railSubmission(now).change).toEqual({
    set: { rail: { submittedAt: now.toISOString() } },
    unset: ['nextActionAt'],
    events: ['SETTLEMENT.SUBMITTED'],
  });
});

test('a payment never handed to a rail cannot be reported on', () => {
  expect(() => reportedChange(handed({ rail: undefined }), { outcome: 'COMPLETED' }, now, timing)).toThrow(
    expect.objectContaining({ code: 'INVALID_STATE_TRANSITION' }),
  );
});

test("success settles (stages may be skipped), keeps the rail reference; a crypto payout's is its tx hash", () => {
  const done = reportedChange(handed(), { outcome: 'COMPLETED', railReference: 'ACH-1' }, now, timing);
  expect(done).toMatchObject({
    kind: 'APPLY',
    plan: { movement: 'settle', change: { set: { status: 'COMPLETED', rail: { reference: 'ACH-1' } } } },
  });
  const crypto = handed({
    destination: {
      destinationType: 'ACCOUNT',
      accountId: 'ExternalAccount:2',
      accountKind: 'EXTERNAL',
      currency: 'USDC',
      cryptoNetwork: 'BASE',
    },
  });
  const onChain = reportedChange(crypto, { outcome: 'COMPLETED', railReference: '0xabc' }, now, timing);
  expect(onChain).toMatchObject({
    kind: 'APPLY',
    plan: { change: { set: { destinationOnChain: { transactionHash: '0xabc', network: 'BASE' } } } },
  });
  // Without a reported hash, nothing is made up.
  const unreported = reportedChange(crypto, { outcome: 'COMPLETED' }, now, timing);
  expect(unreported.kind === 'APPLY' && unreported.plan.change.set.destinationOnChain).toBeUndefined();
});

test('forward only: a repeat is a duplicate, an earlier stage is stale, a final payment never changes', () => {
  const sent = handed({ stage: 'SENT' });
  expect(reportedChange(sent, { outcome: 'SENT' }, now, timing)).toEqual({ kind: 'NOTHING', why: 'DUPLICATE' });
  expect(reportedChange(sent, { outcome: 'IN_REVIEW' }, now, timing)).toEqual({ kind: 'NOTHING', why: 'STALE' });
  const completed = handed({ status: 'COMPLETED', stage: undefined });
  expect(reportedChange(completed, { outcome: 'COMPLETED' }, now, timing)).toEqual({
    kind: 'NOTHING',
    why: 'DUPLICATE',
  });
  expect(reportedChange(completed, { outcome: 'FAILED', failureReason: 'PAYOUT_RETURNED' }, now, timing)).toEqual({
    kind: 'NOTHING',
    why: 'CONTRADICTS_FINAL',
  });
  expect(reportedChange(completed, { outcome: 'SENT' }, now, timing)).toEqual({ kind: 'NOTHING', why: 'STALE' });
});

test('failure fails with the reported reason and returns the money in transit by a refund', () => {
  const failed = reportedChange(handed(), { outcome: 'FAILED', failureReason: 'ACCOUNT_INVALID' }, now, timing);
  expect(failed).toMatchObject({
    kind: 'APPLY',
    plan: { change: { set: { status: 'FAILED', failureReason: 'ACCOUNT_INVALID', refund: { status: 'PENDING' } } } },
  });
});

test('every problem of a report is listed', () => {
  expect(reportProblems({ outcome: 'FAILED' }).map((e) => e.field)).toEqual(['failureReason']);
  expect(reportProblems({ outcome: 'SENT', failureReason: 'ACCOUNT_INVALID', railReference: '' }).map((e) => e.field))
    .toEqual(['failureReason', 'railReference']);
  expect(reportProblems({ outcome: '' as never }).map((e) => e.field)).toEqual(['outcome']);
  expect(reportProblems({ outcome: 'COMPLETED', railReference: 'x'.repeat(200) })).toEqual([]);
});
