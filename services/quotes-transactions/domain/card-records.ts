import type { Card as CardRecord } from '../../../gen/quotes_transactions/v1/cards';
import type { Card } from './card';

/** The typed record of a card: what responses and webhooks render (no platform id, no card data). */
export function toCardRecord(card: Card): CardRecord {
  return {
    id: card.id, cardholderId: card.cardholderId, platformCardId: card.platformCardId, state: card.state,
    stateReason: card.stateReason ?? undefined, brand: card.brand, form: card.form, last4: card.last4,
    expMonth: card.expMonth, expYear: card.expYear, fundingSources: [...card.fundingSources], currency: card.currency,
    processorRef: card.processorRef, issuerRef: card.issuerRef, createdAt: card.createdAt, updatedAt: card.updatedAt,
  };
}
