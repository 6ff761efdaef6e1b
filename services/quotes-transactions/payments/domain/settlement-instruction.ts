import { transactionJson } from '../../../../lib/contract/payment-record-json';
import type { Payment } from './payment';
import { toTransactionRecord } from './payment-records';

const railOf = (p: Payment) =>
  p.paymentRail ?? (p.destination.destinationType === 'ACCOUNT' ? p.destination.paymentRail : undefined);

/**
 * The data of a SETTLEMENT.SUBMITTED event: what an operator's rail integration needs to move the
 * money, and the Transaction record as webhooks carry it (docs/settlement-rails.md). Accounts are
 * named by id; an external account's bank or wallet details are the accounts service's.
 */
export function settlementInstruction(p: Payment) {
  return {
    transactionId: p.id,
    platformId: p.platformId,
    type: p.type,
    reference: p.reference,
    submittedAt: p.rail?.submittedAt,
    sent: { amount: p.sent.amount, currency: p.sent.currency.code },
    received: { amount: p.received.amount, currency: p.received.currency.code },
    source: p.source,
    destination: p.destination,
    ...(railOf(p) ? { paymentRail: railOf(p) } : {}),
    ...(p.remittanceInformation ? { remittanceInformation: p.remittanceInformation } : {}),
    ...(p.purposeOfPayment ? { purposeOfPayment: p.purposeOfPayment } : {}),
    ...(p.counterpartyInformation ? { counterpartyInformation: p.counterpartyInformation } : {}),
    transaction: transactionJson(toTransactionRecord(p)),
  };
}
