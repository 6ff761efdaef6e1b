import type { CardTransactionView } from '../../../lib/contract/card-transaction-json';
import type { Card as CardRecord } from '../../../gen/quotes_transactions/v1/cards';
import type { Card } from './card';
import type { CardTransaction } from './card-transaction';
import { findCurrency } from './currency-catalogue';

/** The typed record of a card: what responses and webhooks render (no platform id, no card data). */
export function toCardRecord(card: Card): CardRecord {
  return {
    id: card.id, cardholderId: card.cardholderId, platformCardId: card.platformCardId, state: card.state,
    stateReason: card.stateReason ?? undefined, brand: card.brand, form: card.form, last4: card.last4,
    expMonth: card.expMonth, expYear: card.expYear, fundingSources: [...card.fundingSources], currency: card.currency,
    processorRef: card.processorRef, issuerRef: card.issuerRef, createdAt: card.createdAt, updatedAt: card.updatedAt,
  };
}

/** The REST view of a card transaction (the currency as the reference's Currency object). */
export function toCardTransactionView(tx: CardTransaction): CardTransactionView {
  const c = findCurrency(tx.currency);
  return {
    ...tx, currency: { code: tx.currency, name: c?.name ?? tx.currency, symbol: c?.symbol ?? '', decimals: c?.decimals ?? 2 },
  };
}
