import type { Currency as CurrencyRecord } from '../../../../gen/quotes_transactions/v1/lookup';
import {
  PaymentDestination_Type,
  PaymentSource_Type,
  Quote_Status,
  Refund_Reason,
  Refund_Status,
  Transaction_Direction,
  Transaction_FailureReason,
  Transaction_PendingReason,
  Transaction_RailSelectionMode,
  Transaction_Status,
  Transaction_Type,
  type Money as MoneyRecord,
  type PaymentDestination as DestinationRecord,
  type PaymentInstruction,
  type PaymentSource as SourceRecord,
  type Quote,
  type RateDetails,
  type Transaction,
} from '../../../../gen/quotes_transactions/v1/payment_records';
import type { Currency } from '../../shared/domain/currency-catalogue';
import type { Money, Payment, PaymentDestination, PaymentSource } from './payment';
import { quoteStatusOf } from './transaction-states';

/*
 * A payment as the interface's Quote and Transaction records (typed messages). The generated
 * string enums carry the REST values, so a domain value is its enum value.
 */

const currencyRecord = (c: Currency): CurrencyRecord => ({
  code: c.code,
  name: c.name,
  symbol: c.symbol,
  decimals: c.decimals,
});
const moneyRecord = (m: Money): MoneyRecord => ({ amount: m.amount, currency: currencyRecord(m.currency) });

function sourceRecord(s: PaymentSource, p: Payment): SourceRecord {
  switch (s.sourceType) {
    case 'ACCOUNT':
      return {
        sourceType: PaymentSource_Type.ACCOUNT,
        accountId: s.accountId,
        currency: s.currency,
        onChainTransaction: p.sourceOnChain,
      };
    case 'REALTIME_FUNDING':
      return {
        sourceType: PaymentSource_Type.REALTIME_FUNDING,
        customerId: s.customerId,
        currency: s.currency,
        onChainTransaction: p.sourceOnChain,
      };
    case 'UMA_ADDRESS':
      return { sourceType: PaymentSource_Type.UMA_ADDRESS, umaAddress: s.umaAddress, currency: s.currency };
  }
}

function destinationRecord(d: PaymentDestination, p: Payment): DestinationRecord {
  return d.destinationType === 'ACCOUNT'
    ? {
      destinationType: PaymentDestination_Type.ACCOUNT,
      accountId: d.accountId,
      currency: d.currency,
      onChainTransaction: p.destinationOnChain,
    }
    : { destinationType: PaymentDestination_Type.UMA_ADDRESS, umaAddress: d.umaAddress, currency: d.currency };
}

function instructionRecords(p: Payment): PaymentInstruction[] {
  return (p.quote?.paymentInstructions ?? []).map((i) => ({
    accountOrWalletInfo: { paymentRails: [], ...(i.accountOrWalletInfo as { accountType: string }) },
    instructionsNotes: i.instructionsNotes as string | undefined,
  }));
}

/** Rate and fee details as the reference's OutgoingRateDetails (the counterparty charges nothing in the sandbox). */
function rateDetails(p: Payment): RateDetails {
  const service = p.fees.service;
  const variableRate = p.sent.amount > 0 ? service.variable / p.sent.amount : 0;
  return {
    counterpartyMultiplier: p.exchangeRate,
    counterpartyFixedFee: 0,
    gridApiMultiplier: Number((p.exchangeRate * (1 - variableRate)).toPrecision(10)),
    gridApiFixedFee: service.fixed,
    gridApiVariableFeeRate: Number(variableRate.toPrecision(10)),
    gridApiVariableFeeAmount: service.variable,
  };
}

/** The interface's Transaction record (IncomingTransaction or OutgoingTransaction). */
export function toTransactionRecord(p: Payment): Transaction {
  const outgoing = p.type === 'OUTGOING';
  return {
    id: p.id,
    status: p.status as Transaction_Status,
    pendingReason: p.pendingReason as Transaction_PendingReason | undefined,
    type: p.type as Transaction_Type,
    direction: outgoing ? Transaction_Direction.DEBIT : Transaction_Direction.CREDIT,
    source: sourceRecord(p.source, p),
    destination: destinationRecord(p.destination, p),
    customerId: p.customerId,
    platformCustomerId: p.platformCustomerId,
    settledAt: p.settledAt,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    receiptDeliveryConfirmedAt: p.receiptDeliveryConfirmedAt,
    description: p.description,
    sentAmount: moneyRecord(p.sent),
    receivedAmount: moneyRecord(p.received),
    exchangeRate: p.exchangeRate,
    quoteId: p.quote?.id,
    refund: p.refund
      && { ...p.refund, status: p.refund.status as Refund_Status, reason: p.refund.reason as Refund_Reason },
    counterpartyInformation: p.counterpartyInformation,
    fees: p.fees.total,
    platformFees: outgoing ? p.fees.platform.total : undefined,
    // The reference gives no reconciliation instructions for a CREATED transaction.
    reconciliationInstructions: p.status === 'CREATED'
      ? undefined
      : { reference: p.reference, transactionHash: p.umaSettlementHash },
    paymentInstructions: outgoing ? instructionRecords(p) : [],
    rateDetails: outgoing && p.quote ? rateDetails(p) : undefined,
    failureReason: p.failureReason as Transaction_FailureReason | undefined,
    paymentRail: outgoing ? p.paymentRail : undefined,
    railSelectionMode: outgoing && p.paymentRail ? Transaction_RailSelectionMode.MANUAL : undefined,
    agentId: p.agentId,
    receiverCustomerInfo: p.receiverCustomerInfo,
  };
}

/** The interface's Quote record. */
export function toQuoteRecord(p: Payment): Quote {
  const quote = p.quote!;
  // The quote's source is the request's: the account, or the funding currency and the network it is paid on.
  const source: SourceRecord = p.source.sourceType === 'ACCOUNT'
    ? { sourceType: PaymentSource_Type.ACCOUNT, accountId: p.source.accountId, customerId: p.source.customerId }
    : p.source.sourceType === 'REALTIME_FUNDING'
    ? { ...sourceRecord(p.source, p), cryptoNetwork: p.source.cryptoNetwork }
    : sourceRecord(p.source, p);
  const destination: DestinationRecord = p.destination.destinationType === 'ACCOUNT'
    ? {
      destinationType: PaymentDestination_Type.ACCOUNT,
      accountId: p.destination.accountId,
      paymentRail: p.destination.paymentRail,
    }
    : {
      destinationType: PaymentDestination_Type.UMA_ADDRESS,
      umaAddress: p.destination.umaAddress,
      currency: p.destination.currency,
    };
  return {
    id: quote.id,
    status: quoteStatusOf(p.status) as Quote_Status,
    createdAt: p.createdAt,
    expiresAt: quote.expiresAt,
    source,
    destination,
    sendingCurrency: currencyRecord(p.sent.currency),
    receivingCurrency: currencyRecord(p.received.currency),
    totalSendingAmount: p.sent.amount,
    totalReceivingAmount: p.received.amount,
    exchangeRate: p.exchangeRate,
    feesIncluded: p.fees.total,
    platformFeesIncluded: p.fees.platform.total,
    paymentInstructions: instructionRecords(p),
    transactionId: p.id,
    counterpartyInformation: p.counterpartyInformation,
    rateDetails: rateDetails(p),
    ...(p.status === 'PENDING_AUTHORIZATION' && p.sca ? { scaChallenge: p.sca.challenge } : {}),
  };
}
