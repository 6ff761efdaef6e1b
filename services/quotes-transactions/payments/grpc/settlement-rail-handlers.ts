import {
  ReportSettlementOutcomeRequest_Outcome as Outcome,
  SettlementRailServiceService,
} from '../../../../gen/quotes_transactions/v1/settlement_rail';
import { bindService } from '../../../../lib/grpc/service-binding';
import type { ReportSettlementOutcome } from '../app/report-settlement-outcome';
import { toTransactionRecord } from '../domain/payment-records';
import type { RailOutcome } from '../domain/settlement-report';
import { callerOf, present } from '../../shared/grpc/payment-caller';

export function bindSettlementRailService(useCases: { reportSettlementOutcome: ReportSettlementOutcome }) {
  return bindService(SettlementRailServiceService, {
    async reportSettlementOutcome(request, ctx) {
      const outcome = (request.outcome === Outcome.OUTCOME_UNSPECIFIED || request.outcome === Outcome.UNRECOGNIZED
        ? ''
        : request.outcome) as RailOutcome;
      const { applied, payment } = await useCases.reportSettlementOutcome(callerOf(ctx), request.transactionId, {
        outcome,
        ...(present(request.failureReason) ? { failureReason: request.failureReason } : {}),
        ...(request.railReference !== undefined ? { railReference: request.railReference } : {}),
      });
      return { applied, transaction: toTransactionRecord(payment) };
    },
  });
}
