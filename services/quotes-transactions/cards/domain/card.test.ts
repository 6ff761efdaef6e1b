import { AppError } from '../../../../lib/errors';
import {
  cardEventTypes,
  isAllowedTransition,
  platformChange,
  provisioningChange,
  type Card,
  type CardState,
} from './card';
import { fundingCurrency } from './card-funding';

const card = (state: CardState, extra: Partial<Card> = {}): Card => ({
  id: 'Card:1',
  platformId: 'Platform:1',
  cardholderId: 'Customer:1',
  platformCardId: 'c-1',
  state,
  stateReason: null,
  form: 'VIRTUAL',
  fundingSources: ['InternalAccount:a'],
  currency: 'USD',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as AppError).code;
  }
  return undefined;
};

describe('card transitions', () => {
  const STATES: CardState[] = ['PENDING_KYC', 'PROCESSING', 'ACTIVE', 'FROZEN', 'CLOSED'];
  test.each(STATES.flatMap((from) => STATES.map((to) => [from, to] as const)))('%s → %s', (from, to) => {
    const allowed = (from === 'ACTIVE' && (to === 'FROZEN' || to === 'CLOSED'))
      || (from === 'FROZEN' && (to === 'ACTIVE' || to === 'CLOSED'));
    expect(isAllowedTransition(from, to)).toBe(allowed);
  });

  test('freezing and unfreezing; closing detaches the funding sources with CLOSED_BY_PLATFORM', () => {
    expect(platformChange(card('ACTIVE'), { state: 'FROZEN' })).toEqual({ state: 'FROZEN', stateReason: null });
    expect(platformChange(card('FROZEN'), { state: 'ACTIVE' })).toEqual({ state: 'ACTIVE', stateReason: null });
    expect(platformChange(card('FROZEN'), { state: 'CLOSED' })).toEqual({
      state: 'CLOSED',
      stateReason: 'CLOSED_BY_PLATFORM',
      fundingSources: [],
    });
  });

  test("the reference's 409s: a closed card is terminal, PROCESSING can't change, ACTIVE → ACTIVE is none", () => {
    expect(codeOf(() => platformChange(card('CLOSED'), { state: 'ACTIVE' }))).toBe('INVALID_STATE_TRANSITION');
    expect(codeOf(() => platformChange(card('CLOSED'), { state: 'CLOSED' }))).toBe('CARD_ALREADY_CLOSED');
    expect(codeOf(() => platformChange(card('CLOSED'), { fundingSources: ['InternalAccount:b'] }))).toBe(
      'CARD_NOT_MUTABLE',
    );
    expect(codeOf(() => platformChange(card('PROCESSING'), { state: 'FROZEN' }))).toBe('INVALID_STATE_TRANSITION');
    expect(codeOf(() => platformChange(card('PROCESSING'), { fundingSources: ['InternalAccount:b'] }))).toBe(
      'INVALID_STATE_TRANSITION',
    );
    expect(codeOf(() => platformChange(card('ACTIVE'), { state: 'ACTIVE' }))).toBe('INVALID_STATE_TRANSITION');
  });

  test('an empty update and funding sources alongside CLOSED are invalid input', () => {
    expect(codeOf(() => platformChange(card('ACTIVE'), {}))).toBe('INVALID_INPUT');
    expect(codeOf(() => platformChange(card('ACTIVE'), { state: 'CLOSED', fundingSources: ['InternalAccount:a'] })))
      .toBe('INVALID_INPUT');
  });

  test('events: a state change and a new binding each announce themselves', () => {
    const before = card('ACTIVE');
    expect(cardEventTypes(before, { state: 'FROZEN', fundingSources: ['InternalAccount:b'] }, true)).toEqual([
      'CARD.STATE_CHANGE',
      'CARD.FUNDING_SOURCE_CHANGE',
    ]);
    expect(cardEventTypes(before, { fundingSources: ['InternalAccount:b'] }, true)).toEqual([
      'CARD.FUNDING_SOURCE_CHANGE',
    ]);
  });

  test("provisioning: ACTIVE with the issuer's details, or CLOSED with ISSUER_REJECTED; only from PROCESSING", () => {
    const details = {
      brand: 'VISA' as const,
      last4: '4242',
      expMonth: 12,
      expYear: 2030,
      processorRef: 'card_1',
      issuerRef: 'iss_1',
    };
    expect(provisioningChange(card('PROCESSING'), { outcome: 'PROVISIONED', ...details })).toEqual({
      state: 'ACTIVE',
      stateReason: null,
      ...details,
    });
    expect(provisioningChange(card('PROCESSING'), { outcome: 'REJECTED' })).toEqual({
      state: 'CLOSED',
      stateReason: 'ISSUER_REJECTED',
      fundingSources: [],
    });
    expect(codeOf(() => provisioningChange(card('ACTIVE'), { outcome: 'REJECTED' }))).toBe('INVALID_STATE_TRANSITION');
  });
});

describe('funding sources', () => {
  const account = (id: string, extra: Record<string, string> = {}) =>
    [id, { id, customerId: 'Customer:1', currency: 'USD', type: 'INTERNAL_FIAT', status: 'ACTIVE', ...extra }] as const;
  const accounts = new Map([
    account('InternalAccount:usd'),
    account('InternalAccount:usd2'),
    account('InternalAccount:mxn', { currency: 'MXN' }),
    account('InternalAccount:other', { customerId: 'Customer:2' }),
    account('InternalAccount:wallet', { type: 'EMBEDDED_WALLET', currency: 'USDB' }),
    account('InternalAccount:usdb', { currency: 'USDB' }),
  ]);

  test("the cardholder's accounts in one eligible currency give the card its currency", () => {
    expect(fundingCurrency({
      cardholderId: 'Customer:1',
      sources: ['InternalAccount:usd', 'InternalAccount:usd2'],
      accounts,
    })).toBe('USD');
  });

  test('every ineligible source is listed', () => {
    let err: AppError | undefined;
    try {
      fundingCurrency({
        cardholderId: 'Customer:1',
        sources: [
          'InternalAccount:usd',
          'InternalAccount:mxn',
          'InternalAccount:other',
          'InternalAccount:missing',
          'InternalAccount:wallet',
          'InternalAccount:usdb',
        ],
        accounts,
      });
    } catch (e) {
      err = e as AppError;
    }
    expect(err?.code).toBe('FUNDING_SOURCE_INELIGIBLE');
    expect((err?.details?.errors as { field: string }[]).map((e) => e.field)).toEqual([
      'fundingSources[1]',
      'fundingSources[2]',
      'fundingSources[3]',
      'fundingSources[4]',
      'fundingSources[5]',
    ]);
  });

  test("a new binding must be in the card's currency", () => {
    expect(codeOf(() =>
      fundingCurrency({
        cardholderId: 'Customer:1',
        sources: ['InternalAccount:usdb'],
        accounts,
        cardCurrency: 'USD',
      })
    )).toBe('FUNDING_SOURCE_INELIGIBLE');
  });
});
