/** The reference's card enums, written once for the contract and the cards domain. */
export const CARD_STATES = ['PENDING_KYC', 'PROCESSING', 'ACTIVE', 'FROZEN', 'CLOSED'] as const;
export const CARD_STATE_REASONS = ['ISSUER_REJECTED', 'CLOSED_BY_PLATFORM', 'CLOSED_BY_GRID'] as const;
export const CARD_BRANDS = ['VISA', 'MASTERCARD'] as const;
export const CARD_FORMS = ['VIRTUAL'] as const;
/** The states a platform may ask for in PATCH /cards/{id}. */
export const REQUESTABLE_CARD_STATES = ['ACTIVE', 'FROZEN', 'CLOSED'] as const;
export const CARD_TRANSACTION_STATUSES = [
  'AUTHORIZED',
  'PARTIALLY_SETTLED',
  'SETTLED',
  'REFUNDED',
  'EXCEPTION',
] as const;
/**
 * Why an authorization was declined (ours: the reference names CARD_PAUSED and INSUFFICIENT_FUNDS).
 * DELEGATED_KEY_REQUIRED / SPENDING_LIMIT_EXCEEDED: the only usable sources were embedded wallets
 * without an ACTIVE delegated key, or over its per-transaction limit.
 */
export const CARD_DECLINE_REASONS = [
  'CARD_PAUSED',
  'CARD_NOT_ACTIVE',
  'INSUFFICIENT_FUNDS',
  'CURRENCY_MISMATCH',
  'DECISION_INTERRUPTED',
  'DELEGATED_KEY_REQUIRED',
  'SPENDING_LIMIT_EXCEEDED',
] as const;
