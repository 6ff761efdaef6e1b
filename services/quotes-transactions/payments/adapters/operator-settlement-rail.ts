import type { SettlementRail } from '../app/settlement-rail';
import type { Payment } from '../domain/payment';
import { completion, nextSettlementChange, onRail, type SettlementTiming } from '../domain/settlement-plan';
import { railSubmission } from '../domain/settlement-report';

/**
 * The operator's settlement rail. A payment reaching its rail (SUBMITTED) is handed over by a
 * SETTLEMENT.SUBMITTED event on payments.events.v1, written with the payment's change (the
 * outbox: handed over exactly when recorded); from then on only the outcomes the operator's
 * integration reports move it (SettlementRailService.ReportSettlementOutcome).
 *
 * Payments that never leave this server are settled here, at once: an incoming payment sent by a
 * customer of this server (already settled between the two platforms), and an outgoing UMA payment
 * whose receiver is a customer here (`settlesHere`).
 */
export function createOperatorSettlementRail(
  deps: { timing: SettlementTiming; settlesHere: (p: Payment) => Promise<boolean> },
): SettlementRail {
  return {
    name: 'operator',
    async next(p, now) {
      if (!onRail(p) || p.sameServerOrigin) return nextSettlementChange(p, now, deps.timing);
      if (p.rail || p.stage !== 'SUBMITTED') return undefined;
      if (await deps.settlesHere(p)) return completion(p, now, deps.timing);
      return railSubmission(now);
    },
  };
}
