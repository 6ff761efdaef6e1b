import type { Payment } from '../domain/payment';
import { nextSettlementChange, type PlannedChange, type SettlementTiming } from '../domain/settlement-plan';

/**
 * The settlement rail port: what the settlement worker does with a payment that is due. The
 * sandbox rail moves payments through their stages by the clock; an operator's rail hands them to
 * the operator's rail integration and waits for the outcomes it reports
 * (app/report-settlement-outcome.ts). Expiries, refunds and approval timeouts are the worker's in
 * both.
 */
export interface SettlementRail {
  readonly name: 'sandbox' | 'operator';
  next(p: Payment, now: Date): Promise<PlannedChange | undefined>;
}

/** The sandbox's timer simulator: every stage after `timing.stepMs`, ending as the payment's sandbox outcome says. */
export function createSandboxSettlementRail(timing: SettlementTiming): SettlementRail {
  return { name: 'sandbox', next: async (p, now) => nextSettlementChange(p, now, timing) };
}
