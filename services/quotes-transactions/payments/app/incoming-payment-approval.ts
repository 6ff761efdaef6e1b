import type { DomainEvent } from '../../../../lib/bus/event-bus';
import type { Logger } from '../../../../lib/log';
import {
  answeredChange,
  APPROVAL_ANSWERED_EVENT,
  awaitsWebhookAnswer,
  decideOnAnswer,
  type ApprovalAnswer,
  type ApprovalWindows,
} from '../domain/incoming-payment-approval';
import type { SettlementTiming } from '../domain/settlement-plan';
import type { PaymentStore } from './payment-store';
import { PaymentMovedOn, type StepRunner } from './step-runner';

/**
 * The gate before an incoming UMA payment is credited: the platform's answer to the
 * incoming-payment webhook (reported by notifications) approves, rejects, defers or asks the sender
 * for counterparty fields. An answer for a payment no longer waiting for one (answered already,
 * approved or rejected by the API, timed out) changes nothing.
 */
export function createIncomingPaymentApproval(deps: {
  payments: PaymentStore;
  runner: StepRunner;
  clock: () => Date;
  timing: SettlementTiming;
  windows: ApprovalWindows;
  logger: Logger;
}) {
  async function answered(platformId: string, transactionId: string, answer: ApprovalAnswer): Promise<void> {
    const decision = decideOnAnswer(answer);
    for (let attempt = 0;; attempt++) {
      const p = await deps.payments.get(platformId, transactionId);
      if (!p || !awaitsWebhookAnswer(p)) return;
      try {
        const { timing, windows } = deps;
        const change = answeredChange({ payment: p, decision, now: deps.clock(), timing, windows });
        await deps.runner.run(p, { change });
        deps.logger.info('incoming payment approval answered', {
          transactionId,
          statusCode: answer.statusCode,
          decision: decision.kind,
        });
        return;
      } catch (err) {
        if (!(err instanceof PaymentMovedOn) || attempt >= 3) throw err;
      }
    }
  }

  /** The bus handler for notifications' events. */
  async function onEvent(event: DomainEvent): Promise<void> {
    if (event.type !== APPROVAL_ANSWERED_EVENT) return;
    await answered(event.platformId, event.aggregateId, event.data as ApprovalAnswer);
  }

  return { answered, onEvent };
}

export type IncomingPaymentApproval = ReturnType<typeof createIncomingPaymentApproval>;
