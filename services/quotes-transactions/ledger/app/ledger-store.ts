import type { DomainEvent } from '../../../../lib/bus/event-bus';
import type { LedgerStep, Posting } from '../domain/ledger-postings';

/**
 * UNCERTAIN: the store cannot tell whether the posting was applied (it predates what a balance remembers); re-applying
 * could double it.
 */
/** OUT_OF_RANGE: a credit with a `ceiling` that the balance would pass (BALANCE_LIMIT); nothing applied. */
export type PostingResult =
  | 'APPLIED'
  | 'ALREADY_APPLIED'
  | 'INSUFFICIENT_FUNDS'
  | 'CLOSED'
  | 'OUT_OF_RANGE'
  | 'VOIDED'
  | 'UNCERTAIN';

export interface BalanceRecord {
  account: string;
  platformId: string;
  currency: string;
  available: number;
}

/**
 * Storage port of the ledger: balance documents per ledger account (internal accounts); the
 * system accounts' shares are spread over a platform's system documents, each step's system
 * postings written together to one of them. Each write is one conditional update, idempotent per
 * `marker`, which the store remembers for good: a replay of an applied posting,
 * however late, changes nothing. A guarded posting (a debit of an internal account) applies only while
 * the balance covers it and its marker has not been voided.
 */
export interface LedgerStore {
  /** `since`: when the step started (epoch ms); the store must remember back to it to apply. */
  /** `refusedIfClosed`: a credit to an internal account that a closing refuses (CLOSED). */
  /** `ceiling`: the most the balance may hold after a credit (OUT_OF_RANGE beyond it). */
  apply(input: {
    platformId: string;
    posting: Posting;
    marker: string;
    guarded: boolean;
    refusedIfClosed?: boolean;
    ceiling?: number;
    events: DomainEvent[];
    since: number;
  }): Promise<PostingResult>;
  /**
   * Applies a step's postings to system accounts (which nothing refuses) together, by one write
   * idempotent per `marker`: APPLIED, ALREADY_APPLIED, or UNCERTAIN as for `apply`.
   */
  applySystem(
    input: { platformId: string; postings: Posting[]; marker: string; since: number },
  ): Promise<'APPLIED' | 'ALREADY_APPLIED' | 'UNCERTAIN'>;
  /**
   * Marks a guarded posting as never to be applied; answers ALREADY_APPLIED if it won the race, UNCERTAIN if the store
   * cannot tell.
   */
  void(
    input: { platformId: string; posting: Posting; marker: string; since: number },
  ): Promise<'VOIDED' | 'ALREADY_APPLIED' | 'UNCERTAIN'>;
  /** Closes an internal account if its balance is zero, in one conditional write (false: it holds funds). */
  close(platformId: string, account: string, currency: string): Promise<boolean>;
  reopen(platformId: string, account: string): Promise<void>;
  /** Moves the markers of busy balances out of them (a background pass); answers how many balances it visited. */
  archivePostings(limit?: number): Promise<number>;
  balances(accounts: string[], platformId?: string): Promise<BalanceRecord[]>;
  /** Every balance document, for audits (the sum of each currency is zero). */
  all(): Promise<BalanceRecord[]>;

  /**
   * Standalone steps (sandbox funding, stablecoin debits and refunds) are journaled before they are
   * applied, for recovery: one conditional write keyed by the step, which claims it. Answers when
   * the step was first journaled (`now`, or the earlier time of a step journaled before).
   */
  journal(platformId: string, step: LedgerStep, now: string): Promise<string>;
  markJournaled(key: string): Promise<void>;
  unfinishedJournal(
    startedBefore: string,
    limit: number,
  ): Promise<Array<{ platformId: string; step: LedgerStep; startedAt: string }>>;
}
