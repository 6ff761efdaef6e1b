import type { DomainEvent } from '../../../../lib/bus/event-bus';
import { instruments } from '../../../../lib/metrics';
import type { NewEvent } from '../../../../lib/bus/outbox';
import {
  assertValidStep,
  BALANCE_LIMIT,
  BalanceOutOfRange,
  isClosableCredit,
  isGuarded,
  type LedgerStep,
  type Posting,
} from '../domain/ledger-postings';
import type { BalanceRecord, LedgerStore } from './ledger-store';

export type StepResult = 'APPLIED' | 'VOIDED';

/**
 * A step whose postings the store cannot decide (it predates the window a balance written before
 * the posting archive kept): re-running it could apply a posting twice, so it stays pending and
 * is reported for reconciliation instead.
 */
export class StepNeedsReconciliation extends Error {
  constructor(readonly stepKey: string) {
    super(`ledger step ${stepKey} predates what its balances remember; reconcile it by hand`);
    this.name = 'StepNeedsReconciliation';
  }
}

export interface Balance {
  accountId: string;
  currency: string;
  available: number;
  total: number;
}

/**
 * Applies balanced steps with single-document atomicity only. Postings of a step are applied one
 * by one, each idempotently, except that its postings to system accounts go together in one write
 * (`systemInOneWrite`, at the place of the first of them); the guarded debit goes first, so a step is either refused
 * before anything moved (VOIDED) or, once its debit is in, always completable by re-running it (the
 * remaining postings are credits and cannot fail). Re-running a step — after a crash, or by two
 * processes at once — never applies a posting twice.
 */
export function createLedger(deps: { store: LedgerStore; newEvent: NewEvent; clock?: () => Date }) {
  const clock = deps.clock ?? (() => new Date());

  const balanceEvents = (platformId: string, posting: Posting, key: string): DomainEvent[] =>
    isGuarded(posting.account)
      ? [deps.newEvent({
        type: 'INTERNAL_ACCOUNT.BALANCE_UPDATED',
        version: 1,
        platformId,
        aggregateId: posting.account,
        data: {
          accountId: posting.account,
          currency: posting.currency,
          change: posting.amount,
          postingKey: key,
        },
      })]
      : [];

  /** The first internal account a later posting of the step credits beyond BALANCE_LIMIT, as its balances stand now. */
  async function overflowingCredit(platformId: string, step: LedgerStep): Promise<Posting | undefined> {
    const credits = step.postings.slice(1).filter((p) => p.amount > 0 && isGuarded(p.account));
    if (!credits.length) return undefined;
    const held = new Map(
      (await deps.store.balances(credits.map((p) => p.account), platformId)).map((b) => [b.account, b.available]),
    );
    return credits.find((p) => (held.get(p.account) ?? 0) + p.amount > BALANCE_LIMIT);
  }

  /**
   * Whether the step's later credits would take an internal account past BALANCE_LIMIT: then its
   * first posting is voided (only a guarded first posting can be refused) and the step answers
   * VOIDED, nothing moved, now and on every later run. A step whose first posting already applied
   * is under way and is finished. This read-then-void check leaves a race between two such steps;
   * a credit as first posting is checked by its own conditional write instead, which nothing passes.
   */
  async function refusedForOverflow(platformId: string, step: LedgerStep, since: number): Promise<boolean> {
    const first = step.postings[0];
    if (!first || !isGuarded(first.account)) return false;
    const overflow = await overflowingCredit(platformId, step);
    if (!overflow) return false;
    const outcome = await deps.store.void({ platformId, posting: first, marker: `${step.key}#0`, since });
    if (outcome === 'UNCERTAIN') throw new StepNeedsReconciliation(step.key);
    return outcome === 'VOIDED';
  }

  /**
   * `startedAt`: when the step was first recorded (a replay must not reach further back than the store remembers).
   * A first posting crediting an internal account past BALANCE_LIMIT voids the step and throws
   * BalanceOutOfRange (400 INVALID_AMOUNT); a later run of the step answers VOIDED.
   */
  async function applyStep(
    platformId: string,
    step: LedgerStep,
    startedAt: string = clock().toISOString(),
  ): Promise<StepResult> {
    return applyPostings(platformId, step, startedAt, true);
  }

  /**
   * applyStep for a caller that records the step's outcome by a write of its own (the step runner's
   * payment write): the balance events of an applied step come back, to be written with that
   * record, instead of into each balance document. A busy account's document then carries no
   * events between relay passes, and the record is written once per step however often the step
   * is re-run, so each event is recorded once.
   */
  async function applyStepForRecord(
    platformId: string,
    step: LedgerStep,
    startedAt: string,
  ): Promise<{ result: StepResult; events: DomainEvent[] }> {
    const result = await applyPostings(platformId, step, startedAt, false);
    if (result !== 'APPLIED') return { result, events: [] };
    return { result, events: step.postings.flatMap((posting) => balanceEvents(platformId, posting, step.key)) };
  }

  async function applyPostings(
    platformId: string,
    step: LedgerStep,
    startedAt: string,
    eventsInBalances: boolean,
  ): Promise<StepResult> {
    assertValidStep(step);
    const since = Date.parse(startedAt);
    if (await refusedForOverflow(platformId, step, since)) {
      instruments().ledgerSteps.add(1, { result: 'VOIDED' });
      return 'VOIDED';
    }
    const system = step.systemInOneWrite ? step.postings.filter((posting) => !isGuarded(posting.account)) : [];
    for (const [index, posting] of step.postings.entries()) {
      if (system.includes(posting)) {
        // All of them at the first one's place: only the first posting of a step can be refused, and it is guarded.
        if (posting !== system[0]) continue;
        const result = await deps.store.applySystem({
          platformId,
          postings: system,
          marker: `${step.key}#system`,
          since,
        });
        if (result === 'UNCERTAIN') throw new StepNeedsReconciliation(step.key);
        if (result === 'APPLIED') {
          for (const applied of system) instruments().ledgerPostings.add(1, { currency: applied.currency });
        }
        continue;
      }
      const marker = `${step.key}#${index}`;
      const guarded = posting.amount < 0 && isGuarded(posting.account);
      const refusedIfClosed = isClosableCredit(step, index);
      // Only the first posting can be refused: a later credit is checked by refuseOverflow before anything moved.
      const ceiling = index === 0 && posting.amount > 0 && isGuarded(posting.account) ? BALANCE_LIMIT : undefined;
      const events = eventsInBalances ? balanceEvents(platformId, posting, step.key) : [];
      const result = await deps.store.apply({
        platformId,
        posting,
        marker,
        guarded,
        refusedIfClosed,
        ceiling,
        events,
        since,
      });
      if (result === 'APPLIED') instruments().ledgerPostings.add(1, { currency: posting.currency });
      const refused = result === 'INSUFFICIENT_FUNDS' || result === 'CLOSED' || result === 'OUT_OF_RANGE';
      const outcome = refused ? await deps.store.void({ platformId, posting, marker, since }) : result;
      if (outcome === 'UNCERTAIN') throw new StepNeedsReconciliation(step.key);
      if (outcome === 'VOIDED') {
        instruments().ledgerSteps.add(1, { result: 'VOIDED' });
        if (result === 'OUT_OF_RANGE') throw new BalanceOutOfRange(posting.account, posting.currency);
        return 'VOIDED';
      }
    }
    instruments().ledgerSteps.add(1, { result: 'APPLIED' });
    return 'APPLIED';
  }

  /**
   * A step with no payment of its own (sandbox funding, a stablecoin operation's debit or refund):
   * journaled first, which claims it under its key, so recovery can finish it. Posting the same
   * step again (a retry after a crash) applies it from when it was first journaled: nothing twice.
   */
  async function post(platformId: string, step: LedgerStep): Promise<StepResult> {
    assertValidStep(step);
    const startedAt = await deps.store.journal(platformId, step, clock().toISOString());
    const result = await applyStep(platformId, step, startedAt);
    await deps.store.markJournaled(step.key);
    return result;
  }

  async function recoverJournal(olderThanMs: number): Promise<number> {
    const before = new Date(clock().getTime() - olderThanMs).toISOString();
    const unfinished = await deps.store.unfinishedJournal(before, 100);
    for (const { platformId, step, startedAt } of unfinished) {
      await applyStep(platformId, step, startedAt);
      await deps.store.markJournaled(step.key);
    }
    return unfinished.length;
  }

  /**
   * Throws BalanceOutOfRange when crediting `amount` to the internal account would take it past
   * BALANCE_LIMIT as it stands now: a use case asks before it records anything, so that a credit
   * too large is answered 400 with nothing stored. The credit's own write checks again.
   */
  async function assertCreditFits(
    platformId: string,
    accountId: string,
    currency: string,
    amount: number,
  ): Promise<void> {
    const [held] = await deps.store.balances([accountId], platformId);
    if ((held?.available ?? 0) + amount > BALANCE_LIMIT) throw new BalanceOutOfRange(accountId, currency);
  }

  async function getBalances(accountIds: string[], platformId?: string): Promise<Balance[]> {
    const found = new Map<string, BalanceRecord>(
      (await deps.store.balances(accountIds, platformId)).map((b) => [b.account, b]),
    );
    return accountIds.map((id) => {
      const b = found.get(id);
      return { accountId: id, currency: b?.currency ?? '', available: b?.available ?? 0, total: b?.available ?? 0 };
    });
  }

  /**
   * Closes the platform's internal accounts for good, each only while it holds nothing; all or
   * none: when one holds funds, those closed here are reopened and the holding balances answered.
   */
  async function closeAccounts(
    platformId: string,
    accounts: Array<{ accountId: string; currency: string }>,
  ): Promise<{ closed: boolean; holding: Balance[] }> {
    const unguarded = accounts.find((a) => !isGuarded(a.accountId));
    if (unguarded) throw new Error(`${unguarded.accountId} is not an internal account`);
    const results = await Promise.all(
      accounts.map(async (a) => ({ ...a, closed: await deps.store.close(platformId, a.accountId, a.currency) })),
    );
    const holding = results.filter((r) => !r.closed);
    if (!holding.length) return { closed: true, holding: [] };
    await reopenAccounts(platformId, results.filter((r) => r.closed).map((r) => r.accountId));
    return { closed: false, holding: await getBalances(holding.map((h) => h.accountId), platformId) };
  }

  async function reopenAccounts(platformId: string, accountIds: string[]): Promise<void> {
    await Promise.all(accountIds.filter(isGuarded).map((id) => deps.store.reopen(platformId, id)));
  }

  return {
    applyStep,
    applyStepForRecord,
    post,
    recoverJournal,
    assertCreditFits,
    getBalances,
    closeAccounts,
    reopenAccounts,
    allBalances: () => deps.store.all(),
    archivePostings: () => deps.store.archivePostings(),
  };
}

export type Ledger = ReturnType<typeof createLedger>;
