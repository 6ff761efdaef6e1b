import type { DomainEvent } from '../../../../lib/bus/event-bus';
import type { NewEvent } from '../../../../lib/bus/outbox';
import type { Payment } from '../domain/payment';
import { quoteJson, transactionJson } from '../../../../lib/contract/payment-record-json';
import { APPROVAL_REQUESTED_EVENT } from '../domain/incoming-payment-approval';
import { toQuoteRecord, toTransactionRecord } from '../domain/payment-records';
import { SETTLEMENT_SUBMITTED_EVENT } from '../domain/settlement-report';
import { settlementInstruction } from '../domain/settlement-instruction';

/**
 * The approval webhook's data: the Transaction plus the reference's IncomingPaymentWebhookData member, when fields are
 * asked for.
 */
function transactionData(p: Payment, kind: string) {
  const data = transactionJson(toTransactionRecord(p));
  const requested = kind === APPROVAL_REQUESTED_EVENT ? p.requestedReceiverFields : undefined;
  return requested?.length
    ? { ...data, requestedReceiverCustomerInfoFields: requested.map(({ name, mandatory }) => ({ name, mandatory })) }
    : data;
}

/**
 * Events of a payment change, version 1. Kinds are the reference's webhook kinds
 * (OUTGOING_PAYMENT.*, INCOMING_PAYMENT.*) with the Transaction record as data, plus QUOTE.CREATED,
 * QUOTE.EXECUTED and QUOTE.EXPIRED with the Quote record; SETTLEMENT.SUBMITTED (no webhook: the
 * operator's rail integration reads it) with the settlement instruction.
 */
export function paymentEvents(newEvent: NewEvent, p: Payment, kinds: readonly string[]): DomainEvent[] {
  return kinds.map((kind) => {
    const event = (aggregateId: string, data: Record<string, unknown>) =>
      newEvent({ type: kind, version: 1, platformId: p.platformId, aggregateId, data });
    if (kind === SETTLEMENT_SUBMITTED_EVENT) return event(p.id, settlementInstruction(p));
    if (kind.startsWith('QUOTE.')) return event(p.quote!.id, quoteJson(toQuoteRecord(p)));
    return event(p.id, transactionData(p, kind));
  });
}
