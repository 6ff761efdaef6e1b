import { AppError } from '../../../lib/errors';

/** The statuses this service moves transactions through (a subset of the reference's). */
export const TRANSACTION_STATUSES = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** Every status the reference lists, accepted as a list filter. */
export const REFERENCE_STATUSES = ['CREATED', 'PENDING', 'PENDING_AUTHORIZATION', 'PROCESSING', 'COMPLETED', 'REJECTED', 'FAILED', 'REFUNDED', 'EXPIRED'] as const;

/** The interface's current failure reasons, and only those. */
export const FAILURE_REASONS = [
  'QUOTE_EXECUTION_FAILED', 'PAYOUT_RETURNED', 'LIMIT_EXCEEDED', 'ACCOUNT_CANNOT_RECEIVE',
  'ACCOUNT_INVALID', 'COMPLIANCE_REJECTED', 'SCA_NOT_COMPLETED',
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

export const PENDING_REASONS = ['COUNTERPARTY_DECLARATION_REQUIRED', 'WALLET_VERIFICATION_REQUIRED', 'COUNTERPARTY_INFORMATION_REQUIRED', 'COMPLIANCE_REVIEW'] as const;
export type PendingReason = (typeof PENDING_REASONS)[number];

export type RefundStatus = 'PENDING' | 'COMPLETED' | 'FAILED';

/**
 * Where a PROCESSING (or approval-awaiting PENDING) payment is on its rail:
 * SUBMITTED (still cancellable) → [IN_REVIEW] → SENT → settled; AWAITING_APPROVAL for incoming
 * payments the platform must approve.
 */
export type SettlementStage = 'AWAITING_FUNDS' | 'AWAITING_APPROVAL' | 'SUBMITTED' | 'IN_REVIEW' | 'SENT';

/**
 * Outgoing: PENDING (quoted) → PROCESSING (executed, funds taken) → COMPLETED | FAILED; a quote
 * never executed becomes EXPIRED. Incoming: PENDING → COMPLETED | FAILED (the reference's
 * INCOMING_PAYMENT kinds have no PROCESSING); where it is on its rail is its SettlementStage.
 */
const TRANSITIONS: Record<'OUTGOING' | 'INCOMING', Record<TransactionStatus, readonly TransactionStatus[]>> = {
  OUTGOING: { PENDING: ['PROCESSING', 'EXPIRED', 'FAILED'], PROCESSING: ['COMPLETED', 'FAILED'], COMPLETED: [], FAILED: [], EXPIRED: [] },
  INCOMING: { PENDING: ['COMPLETED', 'FAILED'], PROCESSING: [], COMPLETED: [], FAILED: [], EXPIRED: [] },
};

export function canTransition(type: 'OUTGOING' | 'INCOMING', from: TransactionStatus, to: TransactionStatus): boolean {
  return from === to || TRANSITIONS[type][from].includes(to);
}

export function assertTransition(type: 'OUTGOING' | 'INCOMING', from: TransactionStatus, to: TransactionStatus): void {
  if (!canTransition(type, from, to)) throw new AppError('INVALID_STATE', `A ${from} ${type.toLowerCase()} transaction cannot become ${to}`, { status: from });
}

export function isTerminal(status: TransactionStatus): boolean {
  return status === 'COMPLETED' || status === 'FAILED' || status === 'EXPIRED';
}

export type QuoteStatus = 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED' | 'EXPIRED';

/** A quote's status follows its transaction's. */
export function quoteStatusOf(status: TransactionStatus): QuoteStatus {
  return status;
}

const REFUND_TRANSITIONS: Record<RefundStatus, readonly RefundStatus[]> = { PENDING: ['COMPLETED', 'FAILED'], COMPLETED: [], FAILED: [] };

export function assertRefundTransition(from: RefundStatus, to: RefundStatus): void {
  if (!REFUND_TRANSITIONS[from].includes(to)) throw new AppError('INVALID_STATE', `A ${from} refund cannot become ${to}`);
}
