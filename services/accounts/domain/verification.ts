import type { CustomerType } from '../../../lib/contract/customer-vocabulary';
import { VERIFICATION_ERROR_TYPES, VERIFICATION_STATES } from '../../../lib/contract/verification-vocabulary';

export { VERIFICATION_ERROR_TYPES, VERIFICATION_STATES };

export type VerificationState = (typeof VERIFICATION_STATES)[number];

export type VerificationErrorType = (typeof VERIFICATION_ERROR_TYPES)[number];

/** One problem standing between a customer and a decision (REST VerificationError). */
export interface VerificationProblem {
  resourceId: string;
  type: VerificationErrorType;
  field?: string;
  acceptedDocumentTypes?: string[];
  reason: string;
}

/** One state the provider will move the verification to, with the problems it reports there. */
export interface ProviderStep {
  status: VerificationState;
  errors?: VerificationProblem[];
  /** Owners screened apart from their business: their own status (by owner id). */
  ownerStatuses?: Record<string, CustomerVerificationStatus>;
}

export interface Verification {
  id: string;
  platformId: string;
  customerId: string;
  customerType: CustomerType;
  status: VerificationState;
  errors: VerificationProblem[];
  /** Owners whose own screening differs from their business's outcome (last step that said so). */
  ownerStatuses?: Record<string, CustomerVerificationStatus>;
  /** Started on the hosted page: the provider collected the applicant's data itself. */
  viaHostedFlow?: boolean;
  /** How many times it went to the provider. */
  attempts: number;
  /** The provider's remaining steps and when the next one is due (sandbox provider). */
  pending: ProviderStep[];
  nextStepAt?: string;
  /** The customer's status still has to follow this verification's (cleared once it does). */
  customerStatusDue?: boolean;
  createdAt: string;
  updatedAt: string;
  revision: number;
}

/** KYC/KYB statuses of a customer (REST KycStatus / KybStatus). */
export type CustomerVerificationStatus = 'UNVERIFIED' | 'PENDING' | 'APPROVED' | 'REJECTED' | 'HOLD';

/** States from which nothing moves on by itself. */
export const FINAL_STATES: readonly VerificationState[] = ['APPROVED', 'REJECTED'];

/** States the platform can act on by submitting again. */
export const RESUBMITTABLE_STATES: readonly VerificationState[] = ['RESOLVE_ERRORS', 'READY_FOR_VERIFICATION'];

/**
 * The customer's status a verification state implies; undefined leaves it as it is. Problems
 * found before anything went to the provider (missing data) leave the customer UNVERIFIED;
 * problems the provider raised put it on HOLD.
 */
export function customerStatusFor(
  v: Pick<Verification, 'status' | 'attempts'>,
): CustomerVerificationStatus | undefined {
  switch (v.status) {
    case 'IN_PROGRESS':
    case 'PENDING_MANUAL_REVIEW':
      return 'PENDING';
    case 'APPROVED':
      return 'APPROVED';
    case 'REJECTED':
      return 'REJECTED';
    case 'RESOLVE_ERRORS':
      return v.attempts > 0 ? 'HOLD' : undefined;
    default:
      return undefined;
  }
}

/** CUSTOMER.KYC_* (individuals) or CUSTOMER.KYB_* (businesses); HOLD and UNVERIFIED have no webhook kind. */
export function customerStatusEventType(type: CustomerType, status: CustomerVerificationStatus): string | undefined {
  if (status !== 'PENDING' && status !== 'APPROVED' && status !== 'REJECTED') return undefined;
  return `CUSTOMER.${type === 'BUSINESS' ? 'KYB' : 'KYC'}_${status}`;
}

/** The verification after the provider's next step; its customer status then has to follow. */
export function takeProviderStep(v: Verification, now: string, stepMs: number): Verification {
  const [step, ...rest] = v.pending;
  return {
    ...v,
    status: step.status,
    errors: step.errors ?? [],
    ...(step.ownerStatuses ? { ownerStatuses: step.ownerStatuses } : {}),
    pending: rest,
    nextStepAt: rest.length ? new Date(Date.parse(now) + stepMs).toISOString() : undefined,
    customerStatusDue: true,
    updatedAt: now,
    revision: v.revision + 1,
  };
}

/** Sent to the provider: IN_PROGRESS now, its steps to come. */
export function sentToProvider(v: Verification, steps: ProviderStep[], now: string, stepMs: number): Verification {
  return {
    ...v,
    status: 'IN_PROGRESS',
    errors: [],
    attempts: v.attempts + 1,
    pending: steps,
    nextStepAt: new Date(Date.parse(now) + stepMs).toISOString(),
    customerStatusDue: true,
    updatedAt: now,
    revision: v.revision + 1,
  };
}
