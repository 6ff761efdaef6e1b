import type { DomainEvent } from '../../../../lib/bus/event-bus';
import type { CardDeclineReason, CardTransaction, EventPlan } from '../domain/card-transaction';

/**
 * A card transaction while its authorization is decided (DECIDING: the hold may be in the ledger
 * already), once APPROVED (the transaction), or DECLINED (kept with its reason, never listed as a
 * transaction). `pending`: a reconciliation event recorded before its ledger step applies, so a
 * crash leaves it to be finished rather than lost.
 */
export type CardTransactionEntry = CardTransaction & {
  decision: 'DECIDING' | 'APPROVED' | 'DECLINED';
  declineReason?: CardDeclineReason;
  /** The card's funding sources when the decision began: the holds it may have placed, in order. */
  sources?: string[];
  pending?: EventPlan;
  /**
   * Approved on an embedded-wallet source (through its delegated key), which must also allow any growth of the hold.
   */
  walletFunded?: boolean;
  /** Declined by recovery, its possible holds not all given back yet. */
  releasing?: boolean;
};

/** What the transaction list filters card transactions by (approved ones only), and where its page starts. */
export interface CardTransactionQuery {
  customerId?: string;
  platformCustomerId?: string;
  /** Only those funded by one of these accounts (an agent's allowed accounts). */
  accountIds?: string[];
  statuses?: string[];
  startDate?: string;
  endDate?: string;
  after?: { createdAt: string; id: string };
  limit: number;
  sortOrder: 'asc' | 'desc';
}

export interface CardTransactionStore {
  ensureIndexes(): Promise<void>;
  insert(entry: CardTransactionEntry): Promise<void>;
  get(platformId: string, id: string): Promise<CardTransactionEntry | null>;
  /** DECIDING → APPROVED (with the funding source that held) or DECLINED, with its events. */
  /** False when the entry was no longer DECIDING (recovery abandoned it first). */
  decide(platformId: string, id: string, set: Partial<CardTransactionEntry>, events: DomainEvent[]): Promise<boolean>;
  /** Records `plan` if the transaction is still at `events` with nothing pending; false when another event won. */
  begin(tx: CardTransaction, plan: EventPlan): Promise<boolean>;
  /** Replaces the pending event by its outcome (`result`), with its events; false when already finished. */
  finish(tx: CardTransaction, result: CardTransaction, events: DomainEvent[]): Promise<boolean>;
  /** Clears `releasing` once recovery gave every possible hold back. */
  released(platformId: string, id: string): Promise<void>;
  /** Entries left DECIDING, releasing, or with an event pending, since before `before` (a crash interrupted them). */
  interrupted(before: string, limit: number): Promise<CardTransactionEntry[]>;
  /** Approved authorizations still open (AUTHORIZED or PARTIALLY_SETTLED) authorized before `before`, oldest first. */
  stale(before: string, limit: number): Promise<CardTransactionEntry[]>;
  /** Approved transactions whose pending pull's confirmation is due by `now`. */
  pullsDue(now: string, limit: number): Promise<CardTransactionEntry[]>;
  /** Up to `limit + 1` approved transactions after `after` in (createdAt, id) order, and how many match in all. */
  list(
    platformId: string,
    query: CardTransactionQuery,
  ): Promise<{ entries: CardTransactionEntry[]; totalCount: number }>;
}
