import { AppError } from '../../../../lib/errors';
import type { Logger } from '../../../../lib/log';
import type { Payment } from '../domain/payment';
import type { SettlementTiming } from '../domain/settlement-plan';
import { reportedChange, reportProblems, type SettlementReport } from '../domain/settlement-report';
import type { Caller } from '../../shared/app/payment-accounts';
import type { PaymentStore } from './payment-store';
import { PaymentMovedOn, type StepRunner } from './step-runner';

const MAX_RACES = 5;

export interface ReportedOutcome {
  /** False when the report changed nothing: a repeat, a stage the payment is past, or a final payment. */
  applied: boolean;
  payment: Payment;
}

/**
 * The operator's rail integration reports what became of a payment it was handed. The change goes
 * through the step runner as the sandbox's do (its ledger movement applied once, under the
 * payment's version); a report losing a race with another change of the same payment is decided
 * again on what won, so two reports at once still move the money once.
 */
export function createReportSettlementOutcome(
  deps: { payments: PaymentStore; runner: StepRunner; clock: () => Date; timing: SettlementTiming; logger: Logger },
) {
  return async function reportSettlementOutcome(
    caller: Caller,
    transactionId: string,
    report: SettlementReport,
  ): Promise<ReportedOutcome> {
    const problems = reportProblems(report);
    if (problems.length) throw AppError.invalidInput('The settlement report is invalid', problems);
    for (let race = 0; race < MAX_RACES; race++) {
      const p = await deps.payments.get(caller.platformId, transactionId);
      if (!p) throw new AppError('TRANSACTION_NOT_FOUND', `Transaction ${transactionId} not found`);
      const decision = reportedChange(p, report, deps.clock(), deps.timing);
      if (decision.kind === 'NOTHING') {
        if (decision.why === 'CONTRADICTS_FINAL') {
          deps.logger.warn('settlement report contradicts the final status; ignored', {
            transactionId,
            status: p.status,
            outcome: report.outcome,
          });
        }
        return { applied: false, payment: p.pendingStep ? await deps.runner.finish(p) : p };
      }
      try {
        return { applied: true, payment: await deps.runner.run(p, decision.plan) };
      } catch (err) {
        if (!(err instanceof PaymentMovedOn)) throw err;
      }
    }
    throw new AppError('CONFLICT', `Transaction ${transactionId} keeps changing; report again`);
  };
}

export type ReportSettlementOutcome = ReturnType<typeof createReportSettlementOutcome>;
