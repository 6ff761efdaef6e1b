import { createHash } from 'node:crypto';
import { approvalTimeout } from './incoming-payment-approval';
import { paymentKind, statusKind } from './payment-change';
import { holdsFundsInTransit, type MovementName } from './payment-movements';
import type { OnChainTransaction, Payment, PaymentChange, Refund } from './payment';
import { refundAttemptEnd, refundRetry } from './refund-plan';
import type { FailureReason } from './transaction-states';

/** What happens next to a payment: a change, maybe with a ledger movement. */
export interface PlannedChange {
  change: PaymentChange;
  movement?: MovementName;
  /** The change instead, when the movement's guarded debit is refused for lack of funds. */
  onVoid?: PaymentChange;
}

export interface SettlementTiming {
  /** Pause between two stages of a rail (the sandbox's settlement speed). */
  stepMs: number;
}

const later = (now: Date, timing: SettlementTiming) => new Date(now.getTime() + timing.stepMs).toISOString();

export interface FailureOptions {
  refundReason?: Refund['reason'];
  /** The platform rejected the (incoming) payment: once refunded it ends REJECTED. */
  rejectedByPlatform?: boolean;
}

/** A payment failing at `now`, and why. */
export interface PaymentFailure extends FailureOptions {
  payment: Payment;
  reason?: FailureReason;
  now: Date;
  timing: SettlementTiming;
}

/**
 * A payment that failed (`reason` absent for a cancellation or a platform rejection). Money it
 * holds in transit goes back to where it came from by a refund that the worker completes next.
 */
export function failure({ payment: p, reason, now, timing, ...options }: PaymentFailure): PaymentChange {
  const kind = paymentKind(p);
  const refundReason = options.refundReason ?? 'TRANSACTION_FAILED';
  const failed = {
    status: 'FAILED' as const,
    ...(reason ? { failureReason: reason } : {}),
    ...(options.rejectedByPlatform ? { rejectedByPlatform: true } : {}),
  };
  if (!holdsFundsInTransit(p)) {
    return { set: failed, unset: ['pendingReason', 'stage', 'nextActionAt'], events: [`${kind}.FAILED`] };
  }
  return {
    set: {
      ...failed,
      nextActionAt: later(now, timing),
      refund: {
        reference: `${p.reference}-REFUND`,
        initiatedAt: now.toISOString(),
        status: 'PENDING',
        reason: refundReason,
      },
    },
    unset: ['pendingReason', 'stage'],
    events: [`${kind}.FAILED`, `${kind}.REFUND_PENDING`],
  };
}

const EVM_NETWORKS = new Set(['ETHEREUM', 'BASE', 'POLYGON', 'PLASMA']);

/** The sandbox's stand-in for the hash of a settled on-chain leg: stable per payment and leg. */
export function sandboxOnChain(p: Payment, leg: 'source' | 'destination', network: string): OnChainTransaction {
  const hash = createHash('sha256').update(`${p.id}/${leg}`).digest('hex');
  return { transactionHash: `${EVM_NETWORKS.has(network) ? '0x' : ''}${hash}`, network };
}

const paysOrIsPaidByUma = (p: Payment) =>
  p.source.sourceType === 'UMA_ADDRESS' || p.destination.destinationType === 'UMA_ADDRESS';

/** The sandbox's stand-in for the Lightning payment hash that settles a UMA payment between the VASPs. */
export function sandboxUmaSettlementHash(p: Payment): string | undefined {
  return paysOrIsPaidByUma(p) ? createHash('sha256').update(`${p.id}/uma-settlement`).digest('hex') : undefined;
}

/**
 * Completes the payment; an internal destination closed meanwhile (its customer deleted) refuses
 * it, and the payment fails. `railReference`: what a real rail reported (the on-chain hash of a
 * crypto payout, the settling payment's hash of an UMA payment); the sandbox makes up its own.
 */
export function completion(
  p: Payment,
  now: Date,
  timing: SettlementTiming,
  reported?: { railReference?: string },
): PlannedChange {
  const network = p.destination.destinationType === 'ACCOUNT' ? p.destination.cryptoNetwork : undefined;
  const simulated = reported === undefined;
  const onChain = network
    && (simulated
      ? sandboxOnChain(p, 'destination', network)
      : reported.railReference
      ? { transactionHash: reported.railReference, network }
      : undefined);
  const umaSettlementHash = simulated
    ? sandboxUmaSettlementHash(p)
    : paysOrIsPaidByUma(p)
    ? reported.railReference
    : undefined;
  return {
    movement: p.type === 'OUTGOING' ? 'settle' : 'credit',
    change: {
      set: {
        status: 'COMPLETED',
        settledAt: now.toISOString(),
        ...(onChain ? { destinationOnChain: onChain } : {}),
        ...(umaSettlementHash ? { umaSettlementHash } : {}),
      },
      unset: ['pendingReason', 'stage', 'nextActionAt'],
      events: [`${paymentKind(p)}.COMPLETED`],
    },
    onVoid: failure({ payment: p, reason: 'ACCOUNT_CANNOT_RECEIVE', now, timing }),
  };
}

/** Executed outgoing payments are PROCESSING; incoming ones stay PENDING while on their rail. */
export function onRail(p: Payment): boolean {
  return p.type === 'OUTGOING' ? p.status === 'PROCESSING' : p.status === 'PENDING' && p.stage !== 'AWAITING_APPROVAL';
}

/**
 * The next step of a payment on its (sandbox) rail, or undefined when nothing is due. A quote not
 * executed by its expiry expires; a payment on its rail goes SUBMITTED → [IN_REVIEW] → SENT →
 * COMPLETED or FAILED as its sandbox outcome says; a pending refund then completes or fails, and a
 * failed one is retried (domain/refund-plan.ts).
 */
export function nextSettlementChange(p: Payment, now: Date, timing: SettlementTiming): PlannedChange | undefined {
  if (p.pendingStep) return undefined;
  if (p.status === 'PENDING_AUTHORIZATION' && p.quote) {
    if (now.getTime() < Date.parse(p.quote.expiresAt)) return undefined;
    return {
      change: {
        set: { status: 'FAILED', failureReason: 'SCA_NOT_COMPLETED' },
        unset: ['stage', 'nextActionAt'],
        events: [`${paymentKind(p)}.FAILED`],
      },
    };
  }
  if (p.status === 'PENDING' && p.quote && !p.quote.executedAt) {
    if (now.getTime() < Date.parse(p.quote.expiresAt)) return undefined;
    return {
      change: {
        set: { status: 'EXPIRED' },
        unset: ['stage', 'nextActionAt'],
        events: ['QUOTE.EXPIRED', `${paymentKind(p)}.EXPIRED`],
      },
    };
  }
  if (p.status === 'FAILED' && p.refund?.status === 'PENDING') return refundAttemptEnd(p, now, timing);
  if (p.status === 'FAILED' && p.refund?.status === 'FAILED') return refundRetry(p, now, timing);
  const unanswered = approvalTimeout(p, now, timing);
  if (unanswered) return { change: unanswered };
  if (!onRail(p)) return undefined;
  const outcome = p.sandboxOutcome;
  switch (p.stage) {
    case 'SUBMITTED':
      return outcome.kind === 'REVIEWED'
        ? {
          change: {
            set: { stage: 'IN_REVIEW', pendingReason: 'COMPLIANCE_REVIEW', nextActionAt: later(now, timing) },
            events: [statusKind(p)],
          },
        }
        : { change: { set: { stage: 'SENT', nextActionAt: later(now, timing) }, events: [] } };
    case 'IN_REVIEW':
      if (outcome.kind === 'REVIEWED' && !outcome.passes) {
        return {
          change: failure({
            payment: p,
            reason: 'COMPLIANCE_REJECTED',
            now,
            timing,
          }),
        };
      }
      return {
        change: {
          set: { stage: 'SENT', nextActionAt: later(now, timing) },
          unset: ['pendingReason'],
          events: [statusKind(p)],
        },
      };
    case 'SENT':
      return outcome.kind === 'FAILS'
        ? {
          change: failure({
            payment: p,
            reason: outcome.reason,
            now,
            timing,
          }),
        }
        : completion(p, now, timing);
    default:
      return undefined;
  }
}

/**
 * Cancelling is possible while a bank transfer is still SUBMITTED (not yet sent on its rail); once
 * handed to an operator's rail it is the rail's, and only its reported outcome ends it.
 */
export function isCancellable(p: Payment): boolean {
  return onRail(p) && p.stage === 'SUBMITTED' && !p.rail;
}
