import {
  PENDING_REASONS as PENDING_REASON_NAMES,
  TRANSACTION_STATUSES,
} from '../../../../lib/contract/payment-vocabulary';
import { AppError } from '../../../../lib/errors';

/**
 * The reference's transaction statuses, every one of which this service produces and a list filter
 * accepts. PENDING_AUTHORIZATION: an SCA customer's quote awaiting its Strong Customer
 * Authentication challenge (docs/api/sca.md).
 */
export { TRANSACTION_STATUSES };
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** The interface's current failure reasons, and only those. */
export const FAILURE_REASONS = [
  'QUOTE_EXECUTION_FAILED',
  'PAYOUT_RETURNED',
  'LIMIT_EXCEEDED',
  'ACCOUNT_CANNOT_RECEIVE',
  'ACCOUNT_INVALID',
  'COMPLIANCE_REJECTED',
  'SCA_NOT_COMPLETED',
  'PAYMENT_APPROVAL_WEBHOOK_ERROR',
  'PAYMENT_APPROVAL_TIMED_OUT',
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

export const PENDING_REASONS = PENDING_REASON_NAMES;
export type PendingReason = (typeof PENDING_REASONS)[number];

export type RefundStatus = 'PENDING' | 'COMPLETED' | 'FAILED';

/**
 * Where a PROCESSING (or approval-awaiting PENDING) payment is on its rail:
 * SUBMITTED (still cancellable) → [IN_REVIEW] → SENT → settled; AWAITING_APPROVAL for incoming
 * payments the platform must approve.
 */
export type SettlementStage = 'AWAITING_FUNDS' | 'AWAITING_APPROVAL' | 'SUBMITTED' | 'IN_REVIEW' | 'SENT';

type Direction = 'OUTGOING' | 'INCOMING';

/**
 * Outgoing (the reference's OutgoingTransactionStatus has no CREATED, REJECTED or REFUNDED):
 * PENDING (quoted) → PROCESSING (executed, funds taken) → COMPLETED | FAILED; a quote never
 * executed becomes EXPIRED. A failed outgoing payment stays FAILED; `refund` tells its refund.
 *
 * Incoming (no PROCESSING in the reference's INCOMING_PAYMENT kinds): CREATED (announced by the
 * sending side, no funds yet) → PENDING (funds arrived; on their rail or awaiting approval) →
 * COMPLETED | FAILED. A FAILED payment whose funds go back to the sender stays FAILED while the
 * refund is pending or retried, then ends REJECTED if the receiving side refused it (the
 * platform's reject, or compliance), REFUNDED otherwise.
 */
const TRANSITIONS: Record<Direction, Record<TransactionStatus, readonly TransactionStatus[]>> = {
  OUTGOING: {
    CREATED: [],
    PENDING: ['PENDING_AUTHORIZATION', 'PROCESSING', 'EXPIRED', 'FAILED'],
    PROCESSING: ['COMPLETED', 'FAILED'],
    PENDING_AUTHORIZATION: ['PENDING', 'PROCESSING', 'FAILED'],
    COMPLETED: [],
    REJECTED: [],
    FAILED: [],
    REFUNDED: [],
    EXPIRED: [],
  },
  INCOMING: {
    CREATED: ['PENDING'],
    PENDING: ['COMPLETED', 'FAILED'],
    PROCESSING: [],
    PENDING_AUTHORIZATION: [],
    COMPLETED: [],
    REJECTED: [],
    FAILED: ['REJECTED', 'REFUNDED'],
    REFUNDED: [],
    EXPIRED: [],
  },
};

export function canTransition(type: Direction, from: TransactionStatus, to: TransactionStatus): boolean {
  return from === to || TRANSITIONS[type][from].includes(to);
}

export function assertTransition(type: Direction, from: TransactionStatus, to: TransactionStatus): void {
  if (!canTransition(type, from, to)) {
    throw new AppError('INVALID_STATE', `A ${from} ${type.toLowerCase()} transaction cannot become ${to}`, {
      status: from,
    });
  }
}

export function isTerminal(type: Direction, status: TransactionStatus): boolean {
  return TRANSITIONS[type][status].length === 0;
}

/** The status of a failed incoming payment once its funds are back with the sender. */
export function returnedStatus(refusedByReceiver: boolean): 'REJECTED' | 'REFUNDED' {
  return refusedByReceiver ? 'REJECTED' : 'REFUNDED';
}

export const QUOTE_STATUSES = [
  'PENDING',
  'PENDING_AUTHORIZATION',
  'PROCESSING',
  'COMPLETED',
  'FAILED',
  'EXPIRED',
] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

const QUOTE_STATUS: Record<TransactionStatus, QuoteStatus> = {
  CREATED: 'PENDING',
  PENDING: 'PENDING',
  PENDING_AUTHORIZATION: 'PENDING_AUTHORIZATION',
  PROCESSING: 'PROCESSING',
  COMPLETED: 'COMPLETED',
  REJECTED: 'FAILED',
  FAILED: 'FAILED',
  REFUNDED: 'FAILED',
  EXPIRED: 'EXPIRED',
};

/** A quote's status follows its transaction's, within the Quote's own status set. */
export function quoteStatusOf(status: TransactionStatus): QuoteStatus {
  return QUOTE_STATUS[status];
}

/** A failed refund is retried: it becomes PENDING again until an attempt completes. */
const REFUND_TRANSITIONS: Record<RefundStatus, readonly RefundStatus[]> = {
  PENDING: ['COMPLETED', 'FAILED'],
  COMPLETED: [],
  FAILED: ['PENDING'],
};

export function assertRefundTransition(from: RefundStatus, to: RefundStatus): void {
  if (!REFUND_TRANSITIONS[from].includes(to)) {
    throw new AppError('INVALID_STATE', `A ${from} refund cannot become ${to}`);
  }
}

/** The transaction statuses a quote in `status` can have. */
export function transactionStatusesOf(status: QuoteStatus): TransactionStatus[] {
  return TRANSACTION_STATUSES.filter((s) => QUOTE_STATUS[s] === status);
}
