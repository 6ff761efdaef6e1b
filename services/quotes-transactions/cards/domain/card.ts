import {
  CARD_BRANDS,
  CARD_FORMS,
  CARD_STATE_REASONS,
  CARD_STATES,
  REQUESTABLE_CARD_STATES,
} from '../../../../lib/contract/card-types';
import { AppError } from '../../../../lib/errors';

export { CARD_BRANDS, CARD_FORMS, CARD_STATE_REASONS, CARD_STATES, REQUESTABLE_CARD_STATES };

/**
 * A card and its lifecycle. New cards are PROCESSING until the issuer provisions them (ACTIVE) or
 * refuses (CLOSED, ISSUER_REJECTED); the platform may then move ACTIVE ⇄ FROZEN and ACTIVE|FROZEN →
 * CLOSED, which is terminal. PENDING_KYC is the reference's state for a cardholder without KYC;
 * we refuse to issue such a card instead (CARDHOLDER_KYC_NOT_APPROVED), so no card is ever in it.
 */
export type CardState = (typeof CARD_STATES)[number];
export type CardStateReason = (typeof CARD_STATE_REASONS)[number];
export type CardBrand = (typeof CARD_BRANDS)[number];
export type CardForm = (typeof CARD_FORMS)[number];
export type RequestableCardState = (typeof REQUESTABLE_CARD_STATES)[number];

/**
 * Currencies a card may transact in: the reference names USDB for v1; the interface's users fund
 * cards from their USD accounts, so USD is eligible too.
 */
export const CARD_ELIGIBLE_CURRENCIES: readonly string[] = ['USD', 'USDB'];

export interface Card {
  id: string;
  platformId: string;
  cardholderId: string;
  platformCardId: string;
  state: CardState;
  stateReason: CardStateReason | null;
  form: CardForm;
  /** In priority order: decisioning tries the first one first. Empty only once CLOSED (bindings detached). */
  fundingSources: string[];
  /** Those of fundingSources that are embedded wallets (absent on cards bound before wallets could fund). */
  walletSources?: string[];
  currency: string;
  brand?: CardBrand;
  last4?: string;
  expMonth?: number;
  expYear?: number;
  processorRef?: string;
  issuerRef?: string;
  createdAt: string;
  updatedAt: string;
}

/** What the issuer answers when asked to provision a card (no PAN, CVV or expiry beyond what the Card shows). */
export type Provisioning =
  | {
    outcome: 'PROVISIONED';
    brand: CardBrand;
    last4: string;
    expMonth: number;
    expYear: number;
    processorRef: string;
    issuerRef: string;
  }
  | { outcome: 'REJECTED' };

export interface CardChange {
  state?: CardState;
  stateReason?: CardStateReason | null;
  fundingSources?: string[];
  walletSources?: string[];
}

/** The issuer's answer applied to a PROCESSING card. */
export function provisioningChange(card: Card, provisioning: Provisioning): CardChange & Partial<Card> {
  if (card.state !== 'PROCESSING') {
    throw new AppError('INVALID_STATE_TRANSITION', `${card.id} is ${card.state}, not PROCESSING`);
  }
  if (provisioning.outcome === 'REJECTED') {
    return { state: 'CLOSED', stateReason: 'ISSUER_REJECTED', fundingSources: [] };
  }
  const { outcome: _outcome, ...details } = provisioning;
  return { state: 'ACTIVE', stateReason: null, ...details };
}

/**
 * The platform's PATCH: a state transition and/or new funding sources. Throws the reference's
 * 409s for a transition it does not allow
 * (ACTIVE → ACTIVE is not a transition and is refused like any other).
 */
export function platformChange(
  card: Card,
  request: { state?: RequestableCardState; fundingSources?: string[] },
): CardChange {
  const { state, fundingSources } = request;
  if (state === undefined && fundingSources === undefined) {
    throw AppError.invalidInput('Nothing to update', [{
      field: 'state',
      message: 'state or fundingSources is required',
    }]);
  }
  if (state === 'CLOSED' && fundingSources !== undefined) {
    throw AppError.invalidInput('fundingSources cannot be changed while closing the card', [{
      field: 'fundingSources',
      message: 'cannot be supplied alongside state CLOSED',
    }]);
  }
  if (card.state === 'CLOSED') {
    if (state === 'CLOSED') throw new AppError('CARD_ALREADY_CLOSED', `${card.id} is already CLOSED`);
    if (state === undefined) {
      throw new AppError('CARD_NOT_MUTABLE', `${card.id} is CLOSED and can no longer be changed`);
    }
  }
  const change: CardChange = {};
  if (state !== undefined) {
    if (!isAllowedTransition(card.state, state)) {
      throw new AppError('INVALID_STATE_TRANSITION', `${card.id} cannot go from ${card.state} to ${state}`, {
        from: card.state,
        to: state,
      });
    }
    change.state = state;
    change.stateReason = state === 'CLOSED' ? 'CLOSED_BY_PLATFORM' : null;
    if (state === 'CLOSED') change.fundingSources = [];
  }
  if (fundingSources !== undefined) {
    if (card.state !== 'ACTIVE' && card.state !== 'FROZEN') {
      throw new AppError(
        'INVALID_STATE_TRANSITION',
        `${card.id} is ${card.state}: its funding sources can be changed once it is ACTIVE or FROZEN`,
      );
    }
    change.fundingSources = fundingSources;
  }
  return change;
}

export function isAllowedTransition(from: CardState, to: CardState): boolean {
  if (from === 'ACTIVE') return to === 'FROZEN' || to === 'CLOSED';
  if (from === 'FROZEN') return to === 'ACTIVE' || to === 'CLOSED';
  return false;
}

/**
 * The webhook types one change produces (CARD.STATE_CHANGE on every transition, CARD.FUNDING_SOURCE_CHANGE on a new
 * binding).
 */
export function cardEventTypes(before: Card, change: CardChange, platformRequestedSources: boolean): string[] {
  const types: string[] = [];
  if (change.state !== undefined && change.state !== before.state) types.push('CARD.STATE_CHANGE');
  if (platformRequestedSources) types.push('CARD.FUNDING_SOURCE_CHANGE');
  return types;
}

/** Duplicates and an empty list are refused; the order given is the priority. */
export function fundingSourceListErrors(sources: readonly string[], field = 'fundingSources') {
  if (!sources.length) return [{ field, message: 'must contain at least one internal account id' }];
  const seen = new Set<string>();
  return sources.flatMap((id, index) => {
    if (seen.has(id)) return [{ field: `${field}[${index}]`, message: 'is listed twice' }];
    seen.add(id);
    return [];
  });
}
