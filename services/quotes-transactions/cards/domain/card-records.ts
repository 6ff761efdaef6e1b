import type { CardTransactionView } from '../../../../lib/contract/card-transaction-json';
import type { Card as CardRecord, CardTransactionRecord } from '../../../../gen/quotes_transactions/v1/cards';
import type { Card } from './card';
import type { CardTransaction } from './card-transaction';
import { findCurrency } from '../../shared/domain/currency-catalogue';

/** The typed record of a card: what responses and webhooks render (no platform id, no card data). */
export function toCardRecord(card: Card): CardRecord {
  return {
    id: card.id,
    cardholderId: card.cardholderId,
    platformCardId: card.platformCardId,
    state: card.state,
    stateReason: card.stateReason ?? undefined,
    brand: card.brand,
    form: card.form,
    last4: card.last4,
    expMonth: card.expMonth,
    expYear: card.expYear,
    fundingSources: [...card.fundingSources],
    currency: card.currency,
    processorRef: card.processorRef,
    issuerRef: card.issuerRef,
    createdAt: card.createdAt,
    updatedAt: card.updatedAt,
  };
}

/** The REST view of a card transaction (the currency as the reference's Currency object). */
export function toCardTransactionView(tx: CardTransaction): CardTransactionView {
  const c = findCurrency(tx.currency);
  return {
    ...tx,
    currency: { code: tx.currency, name: c?.name ?? tx.currency, symbol: c?.symbol ?? '', decimals: c?.decimals ?? 2 },
  };
}

/** The typed record of a card transaction (the transaction list and GET /transactions/{id}). */
export function toCardTransactionRecord(tx: CardTransaction): CardTransactionRecord {
  const view = toCardTransactionView(tx);
  return {
    id: view.id,
    cardId: view.cardId,
    customerId: view.customerId,
    platformCustomerId: view.platformCustomerId,
    issuerTransactionToken: view.issuerTransactionToken,
    status: view.status,
    direction: tx.direction ?? 'DEBIT',
    merchant: { ...view.merchant },
    currency: view.currency,
    accountId: view.accountId,
    authorizedAmount: view.authorizedAmount,
    settled: view.settled,
    refunded: view.refunded,
    pulls: { ...view.pulls },
    pendingPulls: tx.pendingPulls ?? 0,
    settlements: { ...view.settlements },
    refunds: { ...view.refunds },
    authorizedAt: view.authorizedAt,
    lastEventAt: view.lastEventAt,
    createdAt: view.createdAt,
    updatedAt: view.updatedAt,
  };
}
