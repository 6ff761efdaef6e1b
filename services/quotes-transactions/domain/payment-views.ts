import type { Currency } from './currency-catalogue';
import type { Money, Payment, PaymentDestination, PaymentSource } from './payment';
import { quoteStatusOf } from './transaction-states';

type Json = Record<string, unknown>;

/** Drops undefined members so absent optionals are omitted. */
function compact<T extends Json>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

const currencyJson = (c: Currency) => ({ code: c.code, name: c.name, symbol: c.symbol, decimals: c.decimals });
const moneyJson = (m: Money) => ({ amount: m.amount, currency: currencyJson(m.currency) });

function sourceJson(s: PaymentSource, p: Payment): Json {
  switch (s.sourceType) {
    case 'ACCOUNT':
      return compact({ sourceType: 'ACCOUNT', accountId: s.accountId, currency: s.currency, onChainTransaction: p.sourceOnChain });
    case 'REALTIME_FUNDING':
      return compact({ sourceType: 'REALTIME_FUNDING', customerId: s.customerId, currency: s.currency, onChainTransaction: p.sourceOnChain });
    case 'UMA_ADDRESS':
      return { sourceType: 'UMA_ADDRESS', umaAddress: s.umaAddress, currency: s.currency };
  }
}

function destinationJson(d: PaymentDestination, p: Payment): Json {
  return d.destinationType === 'ACCOUNT'
    ? compact({ destinationType: 'ACCOUNT', accountId: d.accountId, currency: d.currency, onChainTransaction: p.destinationOnChain })
    : { destinationType: 'UMA_ADDRESS', umaAddress: d.umaAddress, currency: d.currency };
}

/** Rate and fee details as the reference's OutgoingRateDetails (the counterparty charges nothing in the sandbox). */
function rateDetailsJson(p: Payment): Json {
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
export function toTransactionView(p: Payment): Json {
  const outgoing = p.type === 'OUTGOING';
  return compact({
    id: p.id,
    status: p.status,
    pendingReason: p.pendingReason,
    type: p.type,
    direction: outgoing ? 'DEBIT' : 'CREDIT',
    source: sourceJson(p.source, p),
    destination: destinationJson(p.destination, p),
    customerId: p.customerId,
    platformCustomerId: p.platformCustomerId,
    settledAt: p.settledAt,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    receiptDeliveryConfirmedAt: p.receiptDeliveryConfirmedAt,
    description: p.description,
    sentAmount: moneyJson(p.sent),
    receivedAmount: moneyJson(p.received),
    exchangeRate: p.exchangeRate,
    quoteId: p.quote?.id,
    refund: p.refund && compact({ ...p.refund }),
    counterpartyInformation: p.counterpartyInformation,
    fees: p.fees.total,
    platformFees: outgoing ? p.fees.platform.total : undefined,
    // The reference gives no reconciliation instructions for a CREATED transaction.
    reconciliationInstructions: p.status === 'CREATED' ? undefined : { reference: p.reference },
    paymentInstructions: outgoing ? p.quote?.paymentInstructions ?? [] : undefined,
    rateDetails: outgoing && p.quote ? rateDetailsJson(p) : undefined,
    failureReason: p.failureReason,
    paymentRail: outgoing ? p.paymentRail ?? null : undefined,
    railSelectionMode: outgoing ? (p.paymentRail ? 'MANUAL' : null) : undefined,
  });
}

/** The interface's Quote record. */
export function toQuoteView(p: Payment): Json {
  const quote = p.quote!;
  const source = p.source.sourceType === 'ACCOUNT'
    ? compact({ sourceType: 'ACCOUNT', accountId: p.source.accountId, customerId: p.source.customerId })
    : sourceJson(p.source, p);
  const destination = p.destination.destinationType === 'ACCOUNT'
    ? compact({ destinationType: 'ACCOUNT', accountId: p.destination.accountId, paymentRail: p.destination.paymentRail })
    : { destinationType: 'UMA_ADDRESS', umaAddress: p.destination.umaAddress, currency: p.destination.currency };
  return compact({
    id: quote.id,
    status: quoteStatusOf(p.status),
    createdAt: p.createdAt,
    expiresAt: quote.expiresAt,
    source,
    destination,
    sendingCurrency: currencyJson(p.sent.currency),
    receivingCurrency: currencyJson(p.received.currency),
    totalSendingAmount: p.sent.amount,
    totalReceivingAmount: p.received.amount,
    exchangeRate: p.exchangeRate,
    feesIncluded: p.fees.total,
    platformFeesIncluded: p.fees.platform.total,
    paymentInstructions: quote.paymentInstructions,
    transactionId: p.id,
    counterpartyInformation: p.counterpartyInformation,
    rateDetails: rateDetailsJson(p),
  });
}
