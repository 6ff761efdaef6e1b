import type { NewEvent } from '../../../../lib/bus/outbox';
import { createWithinQuota } from '../../../../lib/quota';
import { AppError, type FieldError } from '../../../../lib/errors';
import { newId } from '../../../../lib/ids';
import { pageQuery } from '../../../../lib/page-cursor';
import { cardJson } from '../../../../lib/contract/card-json';
import {
  CARD_FORMS,
  CARD_STATES,
  REQUESTABLE_CARD_STATES,
  cardEventTypes,
  fundingSourceListErrors,
  platformChange,
  type Card,
  type CardChange,
  type CardForm,
  type CardState,
  type RequestableCardState,
} from '../domain/card';
import { fundingCurrency, walletSourcesOf } from '../domain/card-funding';
import { toCardRecord } from '../domain/card-records';
import type { Caller } from '../../shared/app/payment-accounts';
import { CardExists, type CardListQuery, type CardStore, type Cardholders } from './card-ports';

export interface IssueCardInput {
  cardholderId: string;
  platformCardId?: string;
  form: string;
  fundingSources: string[];
  /** The password itself is never kept: only whether one was sent. */
  threeDSecurePasswordGiven?: boolean;
}

export interface UpdateCardInput {
  state?: string;
  fundingSources?: string[];
}

export interface ListCardsInput {
  cardholderId?: string;
  accountId?: string;
  platformCardId?: string;
  state?: string;
  limit: number;
  cursor?: string;
  sortOrder?: string;
}

const oneOf = <T extends string>(values: readonly T[], value: string | undefined): value is T =>
  value !== undefined && (values as readonly string[]).includes(value);

/** Issuing, reading, listing and updating cards; provisioning runs after issuing (card-provisioning.ts). */
export function createCardUseCases(deps: {
  store: CardStore;
  cardholders: Cardholders;
  newEvent: NewEvent;
  clock: () => Date;
  /** Called once a card is stored PROCESSING: asks the issuer, without holding up the answer. */
  provisionLater: (card: Card) => void;
  /**
   * Called after a change of the card's sources or a close: what the remaining bindings no longer cover ends (delegated
   * keys).
   */
  bindingsChanged?: (caller: Caller, card: Card) => Promise<void>;
  /** Cards not CLOSED one customer may hold; one more answers 409. */
  maxOpenCardsPerCustomer?: number;
}) {
  const events = (card: Card, types: string[]) =>
    types.map((type) =>
      deps.newEvent({
        type,
        version: 1,
        platformId: card.platformId,
        aggregateId: card.id,
        data: cardJson(toCardRecord(card)),
      })
    );

  async function issue(caller: Caller, input: IssueCardInput): Promise<Card> {
    const errors: FieldError[] = [];
    if (!input.cardholderId) errors.push({ field: 'cardholderId', message: 'is required' });
    if (!oneOf(CARD_FORMS, input.form)) {
      errors.push({
        field: 'form',
        message: `must be one of ${CARD_FORMS.join(', ')}`,
        constraint: { enum: [...CARD_FORMS] },
      });
    }
    errors.push(...fundingSourceListErrors(input.fundingSources));
    if (input.platformCardId !== undefined && !input.platformCardId.trim()) {
      errors.push({ field: 'platformCardId', message: 'must not be empty' });
    }
    if (input.threeDSecurePasswordGiven) {
      errors.push({
        field: 'threeDSecurePassword',
        message: 'this card program has no static-password 3-D Secure factor',
      });
    }
    if (errors.length) throw AppError.invalidInput('Invalid card', errors);

    const { kycStatus, accounts } = await deps.cardholders.read(caller, input.cardholderId, input.fundingSources);
    if (kycStatus === null) {
      throw AppError.invalidInput('Invalid card', [{
        field: 'cardholderId',
        message: 'is not a customer of this platform',
      }]);
    }
    if (kycStatus !== 'APPROVED') {
      throw new AppError('CARDHOLDER_KYC_NOT_APPROVED', `The cardholder's KYC status is ${kycStatus}, not APPROVED`, {
        kycStatus,
      });
    }
    const currency = fundingCurrency({ cardholderId: input.cardholderId, sources: input.fundingSources, accounts });
    const now = deps.clock().toISOString();
    const id = newId('Card');
    const card: Card = {
      id,
      platformId: caller.platformId,
      cardholderId: input.cardholderId,
      platformCardId: input.platformCardId ?? id,
      state: 'PROCESSING',
      stateReason: null,
      form: input.form as CardForm,
      fundingSources: [...input.fundingSources],
      currency,
      walletSources: walletSourcesOf(input.fundingSources, accounts),
      createdAt: now,
      updatedAt: now,
    };
    await createWithinQuota({
      what: 'open cards per customer',
      limit: deps.maxOpenCardsPerCustomer ?? Number.POSITIVE_INFINITY,
    }, {
      count: () => deps.store.countOpen(caller.platformId, card.cardholderId),
      create: async () => {
        try {
          await deps.store.insert(card, []);
        } catch (err) {
          if (err instanceof CardExists) {
            throw new AppError('CONFLICT', `A card with platformCardId ${card.platformCardId} exists`, {
              field: 'platformCardId',
            });
          }
          throw err;
        }
      },
      undo: () => deps.store.discard(caller.platformId, card.id),
    });
    deps.provisionLater(card);
    return card;
  }

  async function get(caller: Caller, id: string): Promise<Card> {
    const card = await deps.store.get(caller.platformId, id);
    if (!card) throw AppError.notFound(`Card ${id}`);
    return card;
  }

  /** Applies a change computed from the card as read; a concurrent change makes it re-read and decide again. */
  async function change(
    caller: Caller,
    id: string,
    decide: (card: Card) => Promise<{ change: CardChange; types: string[] }>,
  ): Promise<Card> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const card = await get(caller, id);
      const { change: next, types } = await decide(card);
      const updated: Card = { ...card, ...definedMembers(next), updatedAt: deps.clock().toISOString() };
      const stored = await deps.store.update(card, { ...next, updatedAt: updated.updatedAt }, events(updated, types));
      if (stored) return stored;
    }
    throw new AppError('CONFLICT', `Card ${id} is being changed concurrently; try again`);
  }

  async function update(caller: Caller, id: string, input: UpdateCardInput): Promise<Card> {
    const errors: FieldError[] = [];
    if (input.state !== undefined && !oneOf(REQUESTABLE_CARD_STATES, input.state)) {
      errors.push({
        field: 'state',
        message: `must be one of ${REQUESTABLE_CARD_STATES.join(', ')}`,
        constraint: { enum: [...REQUESTABLE_CARD_STATES] },
      });
    }
    if (input.fundingSources !== undefined) errors.push(...fundingSourceListErrors(input.fundingSources));
    if (errors.length) throw AppError.invalidInput('Invalid card update', errors);
    const updated = await change(caller, id, async (card) => {
      const next = platformChange(card, {
        state: input.state as RequestableCardState | undefined,
        fundingSources: input.fundingSources,
      });
      if (input.fundingSources !== undefined) {
        const { accounts } = await deps.cardholders.read(caller, card.cardholderId, input.fundingSources);
        fundingCurrency({
          cardholderId: card.cardholderId,
          sources: input.fundingSources,
          accounts,
          cardCurrency: card.currency,
        });
        next.walletSources = walletSourcesOf(input.fundingSources, accounts);
      }
      return { change: next, types: cardEventTypes(card, next, input.fundingSources !== undefined) };
    });
    if (input.fundingSources !== undefined || updated.state === 'CLOSED') await deps.bindingsChanged?.(caller, updated);
    return updated;
  }

  async function list(caller: Caller, input: ListCardsInput) {
    const errors: FieldError[] = [];
    if (input.state !== undefined && !oneOf(CARD_STATES, input.state)) {
      errors.push({
        field: 'state',
        message: `must be one of ${CARD_STATES.join(', ')}`,
        constraint: { enum: [...CARD_STATES] },
      });
    }
    if (input.sortOrder !== undefined && input.sortOrder !== 'asc' && input.sortOrder !== 'desc') {
      errors.push({ field: 'sortOrder', message: 'must be asc or desc', constraint: { enum: ['asc', 'desc'] } });
    }
    if (errors.length) throw AppError.invalidInput('Invalid card list query', errors);
    const page = pageQuery(input.limit, input.cursor);
    const query: CardListQuery = {
      ...page,
      sortOrder: (input.sortOrder ?? 'desc') as 'asc' | 'desc',
      ...(input.cardholderId ? { cardholderId: input.cardholderId } : {}),
      ...(input.accountId ? { accountId: input.accountId } : {}),
      ...(input.platformCardId ? { platformCardId: input.platformCardId } : {}),
      ...(input.state ? { state: input.state as CardState } : {}),
    };
    return deps.store.list(caller.platformId, query);
  }

  return { issue, get, update, list, change, events };
}

function definedMembers<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export type CardUseCases = ReturnType<typeof createCardUseCases>;
