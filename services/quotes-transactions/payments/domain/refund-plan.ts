import { paymentKind } from './payment-change';
import type { Payment } from './payment';
import type { PlannedChange, SettlementTiming } from './settlement-plan';
import { returnedStatus } from './transaction-states';

/** Failed refund attempts after which the retry delay stops doubling (1024 settlement steps). */
const MAX_BACKOFF_DOUBLINGS = 10;

/**
 * The wait before retrying a refund after its `failedAttempts`-th failure: two settlement steps,
 * doubling with each failure, at most 1024 steps. Retries go on until one completes: the money
 * is owed to the sender and stays in transit until then.
 */
export function refundRetryDelayMs(failedAttempts: number, timing: SettlementTiming): number {
  return timing.stepMs * 2 ** Math.min(Math.max(failedAttempts, 1), MAX_BACKOFF_DOUBLINGS);
}

/** Compliance or the platform refused an incoming payment: returned, it ends REJECTED. */
function refusedByReceiver(p: Payment): boolean {
  return p.rejectedByPlatform === true || p.failureReason === 'COMPLIANCE_REJECTED';
}

/** How many refund attempts the sandbox makes fail before one completes. */
function failingAttempts(p: Payment): number {
  return p.sandboxOutcome.kind === 'FAILS' ? p.sandboxOutcome.failingRefundAttempts ?? 0 : 0;
}

/**
 * The end of a pending refund attempt. Completed, the money goes back to the source, and an
 * incoming payment takes its final status. Failed, the money stays in transit and a retry is
 * scheduled after a growing delay.
 */
export function refundAttemptEnd(p: Payment, now: Date, timing: SettlementTiming): PlannedChange {
  const kind = paymentKind(p);
  const failedSoFar = p.failedRefundAttempts ?? 0;
  if (failedSoFar < failingAttempts(p)) {
    const failedRefundAttempts = failedSoFar + 1;
    return {
      change: {
        set: {
          refund: { ...p.refund!, status: 'FAILED' },
          failedRefundAttempts,
          nextActionAt: new Date(now.getTime() + refundRetryDelayMs(failedRefundAttempts, timing)).toISOString(),
        },
        events: [`${kind}.REFUND_FAILED`],
      },
    };
  }
  const finalStatus = p.type === 'INCOMING' ? { status: returnedStatus(refusedByReceiver(p)) } : {};
  return {
    movement: 'refund',
    change: {
      set: { refund: { ...p.refund!, status: 'COMPLETED', settledAt: now.toISOString() }, ...finalStatus },
      unset: ['nextActionAt'],
      events: [`${kind}.REFUND_COMPLETED`],
    },
  };
}

/** A failed refund whose retry is due becomes PENDING again; the attempt ends a step later. */
export function refundRetry(p: Payment, now: Date, timing: SettlementTiming): PlannedChange | undefined {
  if (p.nextActionAt && now.getTime() < Date.parse(p.nextActionAt)) return undefined;
  return {
    change: {
      set: {
        refund: { ...p.refund!, status: 'PENDING' },
        nextActionAt: new Date(now.getTime() + timing.stepMs).toISOString(),
      },
      events: [`${paymentKind(p)}.REFUND_PENDING`],
    },
  };
}
