import type { DomainEvent } from '../../../lib/bus/event-bus';
import type { LedgerStep, Posting } from '../domain/ledger-postings';

/** UNCERTAIN: the posting's marker is older than the store remembers; re-applying could double it. */
export type PostingResult = 'APPLIED' | 'ALREADY_APPLIED' | 'INSUFFICIENT_FUNDS' | 'VOIDED' | 'UNCERTAIN';

export interface BalanceRecord {
  account: string;
  platformId: string;
  currency: string;
  available: number;
}

/**
 * Storage port of the ledger: balance documents per ledger account (system accounts are spread
 * over several). Each posting is applied by one conditional update of its balance document,
 * idempotent per `marker`: a replay of an applied posting changes nothing. A guarded posting (a debit of an internal account) applies only while
 * the balance covers it and its marker has not been voided.
 */
export interface LedgerStore {
  /** `since`: when the step started (epoch ms); the store must remember back to it to apply. */
  apply(input: { platformId: string; posting: Posting; marker: string; guarded: boolean; events: DomainEvent[]; since: number }): Promise<PostingResult>;
  /** Marks a guarded posting as never to be applied; answers ALREADY_APPLIED if it won the race. */
  void(input: { platformId: string; posting: Posting; marker: string }): Promise<'VOIDED' | 'ALREADY_APPLIED'>;
  balances(accounts: string[], platformId?: string): Promise<BalanceRecord[]>;
  /** Every balance document, for audits (the sum of each currency is zero). */
  all(): Promise<BalanceRecord[]>;

  /** Standalone steps (sandbox funding) are journaled before they are applied, for recovery. */
  journal(platformId: string, step: LedgerStep, now: string): Promise<void>;
  markJournaled(key: string): Promise<void>;
  unfinishedJournal(startedBefore: string, limit: number): Promise<Array<{ platformId: string; step: LedgerStep; startedAt: string }>>;
}
