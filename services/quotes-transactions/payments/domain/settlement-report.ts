import { AppError, type FieldError } from '../../../../lib/errors';
import { statusKind } from './payment-change';
import type { Payment } from './payment';
import { completion, failure, onRail, type PlannedChange, type SettlementTiming } from './settlement-plan';
import { FAILURE_REASONS, type FailureReason, type SettlementStage } from './transaction-states';

/** The event that hands a payment to the operator's settlement rail (docs/settlement-rails.md). */
export const SETTLEMENT_SUBMITTED_EVENT = 'SETTLEMENT.SUBMITTED';

/** What an operator's rail reports about a payment it was handed. */
export const RAIL_OUTCOMES = ['IN_REVIEW', 'SENT', 'COMPLETED', 'FAILED'] as const;
export type RailOutcome = (typeof RAIL_OUTCOMES)[number];

export interface SettlementReport {
  outcome: RailOutcome;
  /** FAILED only: one of the interface's failure reasons. */
  failureReason?: string;
  /**
   * The rail's own reference (kept once; the on-chain hash of a crypto payout, the settling hash of an UMA payment).
   */
  railReference?: string;
}

/** What a report does: a change to apply, or nothing (already reported, or the payment is past it). */
export type ReportDecision =
  | { kind: 'APPLY'; plan: PlannedChange }
  | { kind: 'NOTHING'; why: 'DUPLICATE' | 'STALE' | 'CONTRADICTS_FINAL' };

/** How far along its rail a payment is: a report of a stage not beyond it changes nothing. */
const STAGE_ORDER: Partial<Record<SettlementStage, number>> = { SUBMITTED: 0, IN_REVIEW: 1, SENT: 2 };
const OUTCOME_ORDER: Record<RailOutcome, number> = { IN_REVIEW: 1, SENT: 2, COMPLETED: 3, FAILED: 3 };

/** The change that hands a payment on its rail to the operator's rail: no timer moves it after this. */
export function railSubmission(now: Date): PlannedChange {
  return {
    change: {
      set: { rail: { submittedAt: now.toISOString() } },
      unset: ['nextActionAt'],
      events: [SETTLEMENT_SUBMITTED_EVENT],
    },
  };
}

/** The report's problems, every one (INVALID_INPUT lists them). */
export function reportProblems(report: SettlementReport): FieldError[] {
  const problems: FieldError[] = [];
  if (!(RAIL_OUTCOMES as readonly string[]).includes(report.outcome)) {
    problems.push({
      field: 'outcome',
      message: 'is required: a rail outcome',
      constraint: { enum: [...RAIL_OUTCOMES] },
    });
  }
  if (report.outcome === 'FAILED' && !(FAILURE_REASONS as readonly string[]).includes(report.failureReason ?? '')) {
    problems.push({
      field: 'failureReason',
      message: 'a FAILED report needs one of the failure reasons',
      constraint: { enum: [...FAILURE_REASONS] },
    });
  }
  if (report.outcome !== 'FAILED' && report.failureReason) {
    problems.push({ field: 'failureReason', message: 'only a FAILED report has one' });
  }
  if (report.railReference !== undefined && (report.railReference.length === 0 || report.railReference.length > 200)) {
    problems.push({
      field: 'railReference',
      message: 'must be 1 to 200 characters',
      constraint: { minLength: 1, maxLength: 200 },
    });
  }
  return problems;
}

/**
 * What a rail's report does to a payment. Reports may repeat and arrive out of order: a payment
 * moves forward only (SUBMITTED → IN_REVIEW → SENT → COMPLETED | FAILED); a report of where it
 * already is or was changes nothing, and a final payment never changes. Only a payment handed to
 * the rail can be reported on (INVALID_STATE_TRANSITION otherwise).
 */
export function reportedChange(
  p: Payment,
  report: SettlementReport,
  now: Date,
  timing: SettlementTiming,
): ReportDecision {
  const final = report.outcome === 'COMPLETED' || report.outcome === 'FAILED';
  if (!p.rail) {
    throw new AppError('INVALID_STATE_TRANSITION', `Transaction ${p.id} was not handed to a settlement rail`);
  }
  if (!onRail(p) || p.pendingStep) {
    // Settled (or settling): the rail can only repeat what it said, or contradict it.
    const settled = p.status === 'COMPLETED' ? 'COMPLETED' : 'FAILED';
    if (p.pendingStep || !final) return { kind: 'NOTHING', why: p.pendingStep ? 'DUPLICATE' : 'STALE' };
    return { kind: 'NOTHING', why: report.outcome === settled ? 'DUPLICATE' : 'CONTRADICTS_FINAL' };
  }
  const reached = STAGE_ORDER[p.stage!] ?? 0;
  if (OUTCOME_ORDER[report.outcome] <= reached) {
    return { kind: 'NOTHING', why: OUTCOME_ORDER[report.outcome] === reached ? 'DUPLICATE' : 'STALE' };
  }
  const referenced = (plan: PlannedChange): PlannedChange => {
    if (!report.railReference || p.rail?.reference) return plan;
    const rail = { ...p.rail!, reference: report.railReference };
    const withRail = (c: PlannedChange['change']) => ({ ...c, set: { ...c.set, rail } });
    return { ...plan, change: withRail(plan.change), ...(plan.onVoid ? { onVoid: withRail(plan.onVoid) } : {}) };
  };
  switch (report.outcome) {
    case 'IN_REVIEW':
      return {
        kind: 'APPLY',
        plan: referenced({
          change: { set: { stage: 'IN_REVIEW', pendingReason: 'COMPLIANCE_REVIEW' }, events: [statusKind(p)] },
        }),
      };
    case 'SENT':
      return {
        kind: 'APPLY',
        plan: referenced({
          change: {
            set: { stage: 'SENT' },
            unset: ['pendingReason'],
            events: p.stage === 'IN_REVIEW' ? [statusKind(p)] : [],
          },
        }),
      };
    case 'COMPLETED':
      return {
        kind: 'APPLY',
        plan: referenced(completion(p, now, timing, { railReference: report.railReference ?? p.rail.reference })),
      };
    case 'FAILED':
      return {
        kind: 'APPLY',
        plan: referenced({
          change: failure({
            payment: p,
            reason: report.failureReason as FailureReason,
            now,
            timing,
          }),
        }),
      };
  }
}
