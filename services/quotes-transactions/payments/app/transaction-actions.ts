import { AppError } from '../../../../lib/errors';
import { missingReceiverFields, rejectedChange } from '../domain/incoming-payment-approval';
import type { Payment } from '../domain/payment';
import { failure, isCancellable, type PlannedChange, type SettlementTiming } from '../domain/settlement-plan';
import type { Caller } from '../../shared/app/payment-accounts';
import { PaymentMovedOn, type StepRunner } from './step-runner';
import type { TransactionQueries } from './transactions-query';

const awaitingApproval = (p: Payment) =>
  p.type === 'INCOMING' && p.status === 'PENDING' && p.stage === 'AWAITING_APPROVAL' && !p.pendingStep;

const notAwaiting = (p: Payment) =>
  new AppError('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL', `Transaction ${p.id} is not pending platform approval`, {
    status: p.status,
  });

/** Cancellation goes to the bank's own facility: it exists for bank-rail transfers only. */
function onBankRail(p: Payment): boolean {
  const crypto = (end: Payment['source'] | Payment['destination']) => 'cryptoNetwork' in end && !!end.cryptoNetwork;
  return !crypto(p.source) && !crypto(p.destination) && p.source.sourceType !== 'UMA_ADDRESS'
    && p.destination.destinationType !== 'UMA_ADDRESS';
}

/** A quote's transaction whose quote was never executed (nor funded): no transfer exists at a bank yet. */
const neverFunded = (p: Payment) => p.status === 'PENDING' && !!p.quote && !p.quote.executedAt;

/**
 * Cancellation asks the bank to stop a transfer; before its quote is executed there is none, so the
 * reference's 400 "cannot be cancelled" answers, saying why: the quote expires unexecuted (EXPIRED).
 */
const notFunded = (p: Payment) =>
  AppError.invalidInput(
    `Transaction ${p.id} was never executed or funded: there is no bank transfer to cancel; it expires unexecuted at ${
      p.quote!.expiresAt
    }`,
    [{ field: 'transactionId', message: `is not executed yet (its quote expires at ${p.quote!.expiresAt})` }],
  );

/** The platform's actions on a transaction: approve or reject a pending incoming payment, cancel, confirm receipt. */
export function createTransactionActions(
  deps: { queries: TransactionQueries; runner: StepRunner; clock: () => Date; timing: SettlementTiming },
) {
  /** Decides on the current payment and applies; a concurrent change makes it decide again. */
  async function act(caller: Caller, id: string, decide: (p: Payment, now: Date) => PlannedChange): Promise<Payment> {
    for (let attempt = 0;; attempt++) {
      const p = await deps.queries.getTransaction(caller, id);
      try {
        return await deps.runner.run(p, decide(p, deps.clock()));
      } catch (err) {
        if (!(err instanceof PaymentMovedOn) || attempt >= 3) throw err;
      }
    }
  }

  /**
   * `receiverCustomerInfo` must hold every mandatory field the approval webhook asked about the recipient (else 400,
   * the payment still awaits).
   */
  const approve = (caller: Caller, id: string, receiverCustomerInfo?: Record<string, unknown>) =>
    act(caller, id, (p, now) => {
      if (!awaitingApproval(p)) throw notAwaiting(p);
      const info = receiverCustomerInfo && Object.keys(receiverCustomerInfo).length ? receiverCustomerInfo : undefined;
      const missing = missingReceiverFields(p, info);
      if (missing.length) {
        throw AppError.invalidInput(
          'receiverCustomerInfo lacks mandatory requested fields',
          missing.map((name) => ({ field: `receiverCustomerInfo.${name}`, message: 'was requested as mandatory' })),
        );
      }
      const set = {
        stage: 'SUBMITTED' as const,
        nextActionAt: new Date(now.getTime() + deps.timing.stepMs).toISOString(),
        ...(info ? { receiverCustomerInfo: info } : {}),
      };
      return { change: { set, unset: ['approval'], events: ['INCOMING_PAYMENT.PENDING'] } };
    });

  const reject = (caller: Caller, id: string) =>
    act(caller, id, (p, now) => {
      if (!awaitingApproval(p)) throw notAwaiting(p);
      return { change: rejectedChange(p, now, deps.timing) };
    });

  const cancel = (caller: Caller, id: string) =>
    act(caller, id, (p, now) => {
      if (!onBankRail(p)) {
        throw AppError.invalidInput('Only bank-rail transfers can be cancelled', [{
          field: 'transactionId',
          message: 'is not a bank-rail transfer',
        }]);
      }
      if (neverFunded(p)) throw notFunded(p);
      if (!isCancellable(p) || p.pendingStep) {
        throw new AppError(
          'TRANSACTION_NOT_CANCELLABLE',
          `Transaction ${p.id} is past the point where it can be cancelled`,
          { status: p.status },
        );
      }
      return {
        change: failure({
          payment: p,
          now,
          timing: deps.timing,
          refundReason: 'USER_CANCELLATION',
        }),
      };
    });

  const confirmReceiptDelivery = (caller: Caller, id: string, at?: string) =>
    act(caller, id, (_p, now) => {
      const ms = at === undefined ? now.getTime() : Date.parse(at);
      if (Number.isNaN(ms)) {
        throw AppError.invalidInput('Invalid receiptDeliveryConfirmedAt', [{
          field: 'receiptDeliveryConfirmedAt',
          message: 'must be an ISO 8601 date-time',
          constraint: { format: 'date-time' },
        }]);
      }
      return { change: { set: { receiptDeliveryConfirmedAt: new Date(ms).toISOString() }, events: [] } };
    });

  return { approve, reject, cancel, confirmReceiptDelivery };
}

export type TransactionActions = ReturnType<typeof createTransactionActions>;
