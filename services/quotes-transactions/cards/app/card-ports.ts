import type { DomainEvent } from '../../../../lib/bus/event-bus';
import type { PagePosition } from '../../../../lib/page-cursor';
import type { Card, CardChange, CardState, Provisioning } from '../domain/card';
import type { Caller } from '../../shared/app/payment-accounts';

export interface CardListQuery {
  cardholderId?: string;
  accountId?: string;
  platformCardId?: string;
  state?: CardState;
  limit: number;
  after?: PagePosition;
  sortOrder: 'asc' | 'desc';
}

/** Storage of Card records; each change is one conditional write carrying its events (outbox). */
export interface CardStore {
  ensureIndexes(): Promise<void>;
  /** Throws CardExists when the platform already has a card with this platformCardId. */
  insert(card: Card, events: DomainEvent[]): Promise<void>;
  get(platformId: string, id: string): Promise<Card | null>;
  /** Applies `change` only if the card is still as `expected` was read (its updatedAt); null when it moved on. */
  update(expected: Card, change: CardChange & Partial<Card>, events: DomainEvent[]): Promise<Card | null>;
  list(platformId: string, query: CardListQuery): Promise<{ cards: Card[]; hasMore: boolean; totalCount: number }>;
  /** Cards still PROCESSING since before `before` (provisioning interrupted). */
  processingSince(before: string, limit: number): Promise<Card[]>;
  /** The cardholder's cards not CLOSED. */
  countOpen(platformId: string, cardholderId: string): Promise<number>;
  /** Forgets a card just stored PROCESSING that went over the quota (it was never answered or provisioned). */
  discard(platformId: string, id: string): Promise<void>;
}

export class CardExists extends Error {
  constructor() {
    super('a card with this platformCardId exists');
    this.name = 'CardExists';
  }
}

/**
 * The card issuer (and processor): provisions a card and keeps its sensitive data (PAN, CVV,
 * expiry) on its side. Provisioning the same card twice answers the same result.
 */
export interface CardIssuer {
  provision(card: Card): Promise<Provisioning>;
}

export interface FundingAccount {
  id: string;
  customerId?: string;
  currency: string;
  /** INTERNAL_FIAT, INTERNAL_CRYPTO or EMBEDDED_WALLET. */
  type: string;
  status: string;
}

/** What cards read about the cardholder and its accounts (the accounts service), scoped to the caller's platform. */
export interface Cardholders {
  /**
   * The cardholder's KYC status (null when the customer is absent, deleted or another platform's)
   * and the internal accounts found among `accountIds`, in one read.
   */
  read(
    caller: Caller,
    customerId: string,
    accountIds: string[],
  ): Promise<{ kycStatus: string | null; platformCustomerId?: string; accounts: ReadonlyMap<string, FundingAccount> }>;
}
