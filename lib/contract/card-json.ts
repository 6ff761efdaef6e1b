import { Card } from '../../gen/quotes_transactions/v1/cards';

/**
 * The REST JSON of a Card, for responses and CARD.* webhooks alike: the typed message member for
 * member, with `stateReason` as the reference's explicit null while the card has none.
 */
export function cardJson(record: Card) {
  const c = Card.fromPartial(record);
  return { ...c, stateReason: c.stateReason ?? null };
}
