import { DuplicateKeyError } from '../../../../lib/store/document-store';
import { findCurrency } from '../../shared/domain/currency-catalogue';
import { breakdown, NO_FEE } from '../domain/fees';
import { paymentReference } from '../domain/funding-instructions';
import type { Payment } from '../domain/payment';
import { movement } from '../domain/payment-movements';
import {
  landingAccount,
  paysAnUmaAddress,
  receiptTransactionId,
  umaReceiverFor,
  type UmaAddressHolder,
} from '../domain/same-server-receiver';
import { SETTLES } from '../domain/sandbox-outcomes';
import { failure, type PlannedChange, type SettlementTiming } from '../domain/settlement-plan';
import type { FailureReason } from '../domain/transaction-states';
import type { PaymentAccounts } from '../../shared/app/payment-accounts';
import type { PaymentStore } from './payment-store';
import type { StepRunner } from './step-runner';

/** Which customers on this server hold an UMA address (the accounts service, across platforms). */
export interface UmaAddressDirectory {
  holders(umaAddress: string): Promise<UmaAddressHolder[]>;
}

export type SameServerDelivery =
  | { kind: 'OUTSIDE' }
  | { kind: 'DELIVERED'; incoming: Payment }
  | { kind: 'REFUSED'; reason: FailureReason; message: string };

export interface ReceiveSameServerPaymentDeps {
  directory: UmaAddressDirectory;
  accounts: Pick<PaymentAccounts, 'customer'>;
  payments: PaymentStore;
  runner: StepRunner;
  clock: () => Date;
}

/**
 * Receives, on this server, an outgoing UMA payment whose receiver is a customer of some platform
 * here: the receiver's INCOMING transaction is created (INCOMING_PAYMENT.PENDING to the receiver's
 * platform) with the money taken from that platform's settlement account into transit, and put on
 * the incoming rail, where the settlement worker credits it (INCOMING_PAYMENT.COMPLETED). An
 * approval of incoming payments belongs between the two: the rail's AWAITING_APPROVAL stage.
 *
 * Idempotent: the INCOMING transaction's id derives from the outgoing one, and its arrival is a
 * ledger step of its own, so delivering again (a retry after a crash, two workers) finds the same
 * record and never moves the money twice.
 */
export function createReceiveSameServerPayment(deps: ReceiveSameServerPaymentDeps) {
  async function senderAddress(outgoing: Payment, receiverAddress: string): Promise<string> {
    const paidByCustomer = outgoing.customerId.startsWith('Customer:');
    const sender = paidByCustomer
      ? await deps.accounts.customer({ platformId: outgoing.platformId }, outgoing.customerId)
      : null;
    // A platform paying from its own account has no UMA address of its own: it is named by its platform.
    return sender?.umaAddress ?? `$platform@${receiverAddress.slice(receiverAddress.lastIndexOf('@') + 1)}`;
  }

  async function incomingFor(
    outgoing: Payment,
    holder: UmaAddressHolder,
    accountId: string,
    receiverAddress: string,
  ): Promise<Payment> {
    const now = deps.clock().toISOString();
    const id = receiptTransactionId(outgoing);
    const money = { amount: outgoing.received.amount, currency: findCurrency(outgoing.received.currency.code)! };
    const code = money.currency.code;
    return {
      id,
      platformId: holder.platformId,
      version: 1,
      type: 'INCOMING',
      status: 'CREATED',
      customerId: holder.customerId,
      platformCustomerId: holder.platformCustomerId,
      source: { sourceType: 'UMA_ADDRESS', umaAddress: await senderAddress(outgoing, receiverAddress), currency: code },
      destination: { destinationType: 'ACCOUNT', accountId, accountKind: 'INTERNAL', currency: code },
      sent: money,
      received: money,
      exchangeRate: 1,
      fees: breakdown(money.amount, NO_FEE, NO_FEE),
      ...(outgoing.counterpartyInformation ? { counterpartyInformation: outgoing.counterpartyInformation } : {}),
      ...(outgoing.description ? { description: outgoing.description } : {}),
      sameServerOrigin: { platformId: outgoing.platformId, transactionId: outgoing.id },
      reference: paymentReference(id),
      sandboxOutcome: SETTLES,
      // Already settled between the two platforms: credited at the worker's next pass.
      stage: 'SENT',
      nextActionAt: now,
      appliedSteps: [],
      createdAt: now,
      updatedAt: now,
    };
  }

  /** Inserts the receipt with its arrival step pending, then applies the step (CREATED → PENDING). */
  async function arrive(incoming: Payment): Promise<Payment> {
    const arrived = { set: { status: 'PENDING' as const }, events: ['INCOMING_PAYMENT.PENDING'] };
    const intent: Payment = {
      ...incoming,
      pendingStep: { ...movement(incoming, 'receive'), startedAt: incoming.createdAt, then: arrived },
    };
    try {
      await deps.payments.insert(intent, []);
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      const existing = await deps.payments.get(incoming.platformId, incoming.id);
      if (!existing) throw err;
      return existing.pendingStep ? deps.runner.finish(existing) : existing;
    }
    return deps.runner.finish(intent);
  }

  return async function receiveSameServerPayment(outgoing: Payment): Promise<SameServerDelivery> {
    if (!paysAnUmaAddress(outgoing)) return { kind: 'OUTSIDE' };
    const address = outgoing.destination.umaAddress;
    const receiver = umaReceiverFor(await deps.directory.holders(address), outgoing.platformId);
    if (receiver.kind === 'OUTSIDE') return { kind: 'OUTSIDE' };
    if (receiver.kind === 'AMBIGUOUS') {
      return { kind: 'REFUSED', reason: 'ACCOUNT_INVALID', message: `${address} names customers of several platforms` };
    }
    const { holder } = receiver;
    const existing = await deps.payments.get(holder.platformId, receiptTransactionId(outgoing));
    if (existing) {
      return { kind: 'DELIVERED', incoming: existing.pendingStep ? await deps.runner.finish(existing) : existing };
    }
    if (holder.isDeleted) {
      return {
        kind: 'REFUSED',
        reason: 'ACCOUNT_CANNOT_RECEIVE',
        message: `the customer holding ${address} was deleted`,
      };
    }
    const account = landingAccount(holder, outgoing.received.currency.code);
    if (!account) {
      return {
        kind: 'REFUSED',
        reason: 'ACCOUNT_CANNOT_RECEIVE',
        message: `${address} holds no active ${outgoing.received.currency.code} account`,
      };
    }
    return { kind: 'DELIVERED', incoming: await arrive(await incomingFor(outgoing, holder, account.id, address)) };
  };
}

export type ReceiveSameServerPayment = ReturnType<typeof createReceiveSameServerPayment>;

/**
 * What the settlement worker does before an outgoing UMA payment settles: a receiver on this
 * server receives it first; one that cannot (deleted, no account in the currency) makes the
 * payment fail instead, and its money goes back to the sender by the usual refund.
 */
export function createSettleToSameServer(deps: { receive: ReceiveSameServerPayment; timing: SettlementTiming }) {
  return async function beforeSettling(p: Payment, plan: PlannedChange, now: Date): Promise<PlannedChange> {
    if (plan.movement !== 'settle' || !paysAnUmaAddress(p)) return plan;
    const delivery = await deps.receive(p);
    return delivery.kind === 'REFUSED'
      ? {
        change: failure({
          payment: p,
          reason: delivery.reason,
          now,
          timing: deps.timing,
        }),
      }
      : plan;
  };
}
