import { breakdown, NO_FEE } from './fees';
import { applyChange } from './payment-change';
import type { Payment } from './payment';
import { refundRetryDelayMs } from './refund-plan';
import { outcomeForIncoming } from './sandbox-outcomes';
import { nextSettlementChange } from './settlement-plan';

const START = new Date('2025-10-13T12:00:00.000Z');
const timing = { stepMs: 1000 };
const USD = { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 };

/** An incoming payment that failed with its money in transit and a refund pending. */
function failedIncoming(failingRefundAttempts: number): Payment {
  return {
    id: 'Transaction:00000000-0000-4000-8000-000000000002',
    platformId: 'Platform:p',
    version: 1,
    type: 'INCOMING',
    status: 'FAILED',
    failureReason: 'ACCOUNT_CANNOT_RECEIVE',
    customerId: 'Customer:c',
    platformCustomerId: 'c',
    source: { sourceType: 'UMA_ADDRESS', umaAddress: '$bob@x.com', currency: 'USD' },
    destination: {
      destinationType: 'ACCOUNT',
      accountId: 'InternalAccount:a',
      accountKind: 'INTERNAL',
      currency: 'USD',
    },
    sent: { amount: 100, currency: USD },
    received: { amount: 100, currency: USD },
    exchangeRate: 1,
    fees: breakdown(100, NO_FEE, NO_FEE),
    reference: 'PAY-2',
    sandboxOutcome: { kind: 'FAILS', reason: 'ACCOUNT_CANNOT_RECEIVE', failingRefundAttempts },
    refund: {
      reference: 'PAY-2-REFUND',
      initiatedAt: START.toISOString(),
      status: 'PENDING',
      reason: 'TRANSACTION_FAILED',
    },
    nextActionAt: START.toISOString(),
    appliedSteps: ['receive'],
    createdAt: START.toISOString(),
    updatedAt: START.toISOString(),
  };
}

/** Runs the worker's plan, each pass at the payment's next action time; answers what it saw and when. */
function runWorker(p: Payment) {
  const seen: Array<{ at: number; events: string[]; status: string; refund: string }> = [];
  for (let i = 0; i < 30 && p.nextActionAt; i++) {
    const now = new Date(p.nextActionAt);
    // A retry is not planned before it is due, whoever asks.
    if (p.refund!.status === 'FAILED') {
      expect(nextSettlementChange(p, new Date(now.getTime() - 1), timing)).toBeUndefined();
    }
    const plan = nextSettlementChange(p, now, timing)!;
    p = applyChange(p, plan.change, now);
    if (plan.movement) p = { ...p, appliedSteps: [...p.appliedSteps, plan.movement] };
    seen.push({
      at: (now.getTime() - START.getTime()) / timing.stepMs,
      events: plan.change.events,
      status: p.status,
      refund: p.refund!.status,
    });
  }
  return { seen, last: p };
}

test.each([
  [1, 2_000],
  [2, 4_000],
  [3, 8_000],
  [10, 1_024_000],
  [11, 1_024_000],
  [50, 1_024_000],
])('after %d failed attempts the retry waits %d ms (step 1000 ms)', (failed, delay) => {
  expect(refundRetryDelayMs(failed, timing)).toBe(delay);
});

test('a refund that fails is retried with a doubling delay until an attempt completes; the money moves once', () => {
  const { seen, last } = runWorker(failedIncoming(3));
  expect(seen).toEqual([
    { at: 0, events: ['INCOMING_PAYMENT.REFUND_FAILED'], status: 'FAILED', refund: 'FAILED' },
    { at: 2, events: ['INCOMING_PAYMENT.REFUND_PENDING'], status: 'FAILED', refund: 'PENDING' },
    { at: 3, events: ['INCOMING_PAYMENT.REFUND_FAILED'], status: 'FAILED', refund: 'FAILED' },
    { at: 7, events: ['INCOMING_PAYMENT.REFUND_PENDING'], status: 'FAILED', refund: 'PENDING' },
    { at: 8, events: ['INCOMING_PAYMENT.REFUND_FAILED'], status: 'FAILED', refund: 'FAILED' },
    { at: 16, events: ['INCOMING_PAYMENT.REFUND_PENDING'], status: 'FAILED', refund: 'PENDING' },
    { at: 17, events: ['INCOMING_PAYMENT.REFUND_COMPLETED'], status: 'REFUNDED', refund: 'COMPLETED' },
  ]);
  expect(last).toMatchObject({
    failedRefundAttempts: 3,
    appliedSteps: ['receive', 'refund'],
    refund: { initiatedAt: START.toISOString(), settledAt: '2025-10-13T12:00:17.000Z' },
  });
  expect(last.nextActionAt).toBeUndefined();
});

test('the sandbox sender $refundfail… fails the first attempt only', () => {
  const p = {
    ...failedIncoming(0),
    failureReason: 'COMPLIANCE_REJECTED' as const,
    sandboxOutcome: outcomeForIncoming('$refundfail@x.com', 100),
  };
  const { seen } = runWorker(p);
  expect(seen.map((s) => `${s.status}/${s.refund}`)).toEqual(['FAILED/FAILED', 'FAILED/PENDING', 'REJECTED/COMPLETED']);
});
