import { ErrorCode, type ErrorDetails } from '@uma-sdk/core';
import type { NewEvent } from '../../../../lib/bus/outbox';
import { newId } from '../../../../lib/ids';
import { paymentEvents } from '../../payments/app/payment-events';
import type { PaymentStore } from '../../payments/app/payment-store';
import { PaymentMovedOn, type StepRunner } from '../../payments/app/step-runner';
import { findCurrency } from '../../shared/domain/currency-catalogue';
import { breakdown, NO_FEE } from '../../payments/domain/fees';
import { paymentReference } from '../../payments/domain/funding-instructions';
import {
  APPROVAL_REQUESTED_EVENT,
  type ApprovalWindows,
  type ReceiverFieldRequest,
} from '../../payments/domain/incoming-payment-approval';
import type { Payment } from '../../payments/domain/payment';
import { SETTLES } from '../../payments/domain/sandbox-outcomes';
import { failure, type SettlementTiming } from '../../payments/domain/settlement-plan';
import type { ReceivableAccount } from '../domain/uma-receiver';

export interface IncomingUmaPaymentsDeps {
  payments: PaymentStore;
  runner: StepRunner;
  newEvent: NewEvent;
  clock: () => Date;
  timing: SettlementTiming;
  windows: ApprovalWindows;
  /** Whether the receiving platform is asked to approve (it has a webhook endpoint). */
  asksApproval?: (platformId: string) => Promise<boolean>;
  /**
   * How long the pay request waits for the platform's decision (below the gateway's call deadline); then the payment
   * fails.
   */
  decisionWaitMs: number;
  pollMs?: number;
}

export interface IncomingUmaPayment {
  transactionId: string;
  account: ReceivableAccount;
  /** In the smallest unit of the account's currency. */
  amount: number;
  senderUmaAddress: string;
  counterpartyInformation: Record<string, unknown>;
  requestedReceiverFields: ReceiverFieldRequest[];
  description?: string;
}

export type IncomingDecision = { kind: 'ACCEPTED'; payment: Payment } | {
  kind: 'REFUSED';
  code: ErrorDetails;
  message: string;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * An incoming UMA payment from another VASP, as an INCOMING transaction of the receiver's platform:
 * PENDING with the incoming-payment webhook out (the platform approves, rejects, defers or asks for
 * fields), or on its rail at once when the platform has no webhook endpoint. No money moves until
 * its invoice is paid (uma-settlement-hold.ts credits it then).
 */
export function createIncomingUmaPayments(deps: IncomingUmaPaymentsDeps) {
  const pollMs = deps.pollMs ?? 50;

  function paymentOf(input: IncomingUmaPayment, asking: boolean, now: Date): Payment {
    const { account, transactionId: id } = input;
    const money = { amount: input.amount, currency: findCurrency(account.currency)! };
    const at = (ms: number) => new Date(now.getTime() + ms).toISOString();
    return {
      id,
      platformId: account.platformId,
      version: 1,
      type: 'INCOMING',
      status: 'PENDING',
      customerId: account.customerId,
      platformCustomerId: account.platformCustomerId,
      source: { sourceType: 'UMA_ADDRESS', umaAddress: input.senderUmaAddress, currency: account.currency },
      destination: {
        destinationType: 'ACCOUNT',
        accountId: account.accountId,
        accountKind: 'INTERNAL',
        currency: account.currency,
      },
      sent: money,
      received: money,
      exchangeRate: 1,
      fees: breakdown(input.amount, NO_FEE, NO_FEE),
      counterpartyInformation: input.counterpartyInformation,
      reference: paymentReference(id),
      sandboxOutcome: SETTLES,
      ...(input.description ? { description: input.description } : {}),
      ...(asking
        ? {
          stage: 'AWAITING_APPROVAL' as const,
          approval: { phase: 'WEBHOOK' as const },
          nextActionAt: at(deps.windows.webhookAnswerMs),
        }
        : { stage: 'SUBMITTED' as const, nextActionAt: at(deps.timing.stepMs) }),
      ...(asking && input.requestedReceiverFields.length
        ? { requestedReceiverFields: input.requestedReceiverFields }
        : {}),
      appliedSteps: [],
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
  }

  /**
   * A 422 asked for counterparty fields: a real sender cannot be asked mid-request, so the payment fails and the sender
   * is told which.
   */
  async function fieldsAsked(p: Payment): Promise<IncomingDecision | undefined> {
    try {
      await deps.runner.run(p, {
        change: failure({
          payment: p,
          reason: 'PAYMENT_APPROVAL_WEBHOOK_ERROR',
          now: deps.clock(),
          timing: deps.timing,
        }),
      });
    } catch (err) {
      if (err instanceof PaymentMovedOn) return undefined;
      throw err;
    }
    const fields = p.approval?.suppliedFields ?? [];
    return {
      kind: 'REFUSED',
      code: ErrorCode.MISSING_MANDATORY_PAYER_DATA,
      message: `the receiver asks for payer data: ${fields.join(', ')}`,
    };
  }

  /** No decision in time: the payment fails (unless the decision lands first), so no invoice is ever owed for it. */
  async function giveUp(p: Payment): Promise<IncomingDecision | undefined> {
    try {
      await deps.runner.run(p, {
        change: failure({
          payment: p,
          reason: 'PAYMENT_APPROVAL_TIMED_OUT',
          now: deps.clock(),
          timing: deps.timing,
        }),
      });
    } catch (err) {
      if (err instanceof PaymentMovedOn) return undefined;
      throw err;
    }
    return {
      kind: 'REFUSED',
      code: ErrorCode.SENDER_NOT_ACCEPTED,
      message: 'the receiving platform did not decide in time',
    };
  }

  /** Waits for the platform's decision, at most `decisionWaitMs`. */
  async function decision(platformId: string, id: string): Promise<IncomingDecision> {
    const deadline = Date.now() + deps.decisionWaitMs;
    for (;;) {
      const p = await deps.payments.get(platformId, id);
      if (!p) throw new Error(`incoming payment ${id} vanished`);
      if (p.status === 'FAILED') {
        return p.rejectedByPlatform
          ? {
            kind: 'REFUSED',
            code: ErrorCode.SENDER_NOT_ACCEPTED,
            message: 'the receiving platform refused the payment',
          }
          : {
            kind: 'REFUSED',
            code: ErrorCode.SENDER_NOT_ACCEPTED,
            message: `the payment was not approved (${p.failureReason ?? 'no answer'})`,
          };
      }
      if (!p.pendingStep && p.stage !== 'AWAITING_APPROVAL') return { kind: 'ACCEPTED', payment: p };
      if (p.approval?.suppliedFields?.length && !p.pendingStep) {
        const refused = await fieldsAsked(p);
        if (refused) return refused;
        continue;
      }
      if (Date.now() >= deadline && !p.pendingStep) {
        const refused = await giveUp(p);
        if (refused) return refused;
        continue;
      }
      await sleep(pollMs);
    }
  }

  return {
    newTransactionId: () => newId('Transaction'),
    async receive(input: IncomingUmaPayment): Promise<IncomingDecision> {
      const asking = (await deps.asksApproval?.(input.account.platformId)) === true;
      const p = paymentOf(input, asking, deps.clock());
      await deps.payments.insert(
        p,
        paymentEvents(deps.newEvent, p, asking ? [APPROVAL_REQUESTED_EVENT] : ['INCOMING_PAYMENT.PENDING']),
      );
      return asking ? decision(p.platformId, p.id) : { kind: 'ACCEPTED', payment: p };
    },
  };
}

export type IncomingUmaPayments = ReturnType<typeof createIncomingUmaPayments>;
