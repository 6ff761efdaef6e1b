/**
 * Postings: the only way a balance changes. A posting adds a signed amount (credit > 0, debit < 0)
 * to one ledger account. Postings come in steps; every step is balanced per currency, so the sum
 * of all balances of one currency is always zero.
 *
 * Internal accounts are guarded: they never go below zero, and once closed (their customer was
 * deleted) they take no new money. A step debits at most one guarded account, or brings new money
 * into one (`creditsOpenAccount`), and that posting is its first, so a step refused for
 * insufficient funds or a closed account has applied nothing. Money going back where it came
 * from (a refund) lands even in a closed account. The system accounts (settlement with the outside world, funds in
 * transit, FX, fees) are counter-accounts and may go negative: settlement's balance is minus what came in.
 */
import { AppError } from '../../../../lib/errors';
import { MAX_AMOUNT } from '../../shared/domain/money';

/**
 * The most an internal account holds and the most one posting moves, in minor units of any
 * currency: the interface's largest amount (below 2^53, so every balance is an exact JS number and
 * an exact int64). No currency we serve needs more: 21 million BTC are 2.1e15 satoshis.
 */
export const BALANCE_LIMIT = MAX_AMOUNT;

/** A posting refused because the balance it leads to would leave the range a balance may take. */
export class BalanceOutOfRange extends AppError {
  constructor(readonly account: string, readonly currency: string) {
    const whose = isGuarded(account) ? `The balance of ${account}` : 'A balance';
    const most = `at most ${BALANCE_LIMIT} minor units of ${currency}`;
    super('INVALID_AMOUNT', `${whose} would leave the range an account holds: ${most}`, { limit: BALANCE_LIMIT });
    this.name = 'BalanceOutOfRange';
  }
}

export interface Posting {
  account: string;
  currency: string;
  amount: number;
}

export interface LedgerStep {
  /** Unique per payment and step, e.g. `Transaction:…/debit`: a step applies at most once. */
  key: string;
  postings: Posting[];
  /** The internal account this step brings new money into, its first posting: refused once the account is closed. */
  creditsOpenAccount?: string;
  /**
   * Its postings to system accounts (never refused) are applied together, by one write. Set on
   * every step made since; a step recorded before (still pending across an upgrade) keeps one
   * write per posting, so that its replay finds the markers it already wrote.
   */
  systemInOneWrite?: true;
}

export type SystemAccountKind =
  | 'settlement'
  | 'transit'
  | 'fx'
  | 'fees'
  | 'platform-fees'
  | 'card-holds'
  | 'card-network';

export function systemAccount(kind: SystemAccountKind, currency: string, platformId: string): string {
  return `ledger:${kind}:${currency}:${platformId}`;
}

export function isGuarded(account: string): boolean {
  return account.startsWith('InternalAccount:');
}

/** The posting at `index` is new money into an account that may be closed (refused then). */
export function isClosableCredit(step: LedgerStep, index: number): boolean {
  const posting = step.postings[index];
  return index === 0 && posting.amount > 0 && step.creditsOpenAccount === posting.account;
}

/** Throws unless the step is well formed: balanced per currency, integer amounts, guarded debit first. */
export function assertValidStep(step: LedgerStep): void {
  const sums = new Map<string, bigint>();
  step.postings.forEach((posting, index) => {
    if (!Number.isSafeInteger(posting.amount) || posting.amount === 0) {
      throw new Error(`posting ${index} of ${step.key} has amount ${posting.amount}`);
    }
    if (Math.abs(posting.amount) > BALANCE_LIMIT) throw new BalanceOutOfRange(posting.account, posting.currency);
    if (posting.amount < 0 && isGuarded(posting.account) && index !== 0) {
      throw new Error(`posting ${index} of ${step.key} debits a guarded account after the first posting`);
    }
    sums.set(posting.currency, (sums.get(posting.currency) ?? 0n) + BigInt(posting.amount));
  });
  for (const [currency, sum] of sums) {
    if (sum !== 0n) throw new Error(`step ${step.key} is unbalanced in ${currency} by ${sum}`);
  }
}

/**
 * Drops zero postings (a fee of 0) and checks the result. A first posting crediting an internal
 * account is new money into it (`creditsOpenAccount`) unless the step returns money (a refund).
 */
export function ledgerStep(key: string, postings: Posting[], options: { returnsMoney?: boolean } = {}): LedgerStep {
  const kept = postings.filter((p) => p.amount !== 0);
  const first = kept[0];
  const opens = !options.returnsMoney && first && first.amount > 0 && isGuarded(first.account);
  const step: LedgerStep = {
    key,
    postings: kept,
    ...(opens ? { creditsOpenAccount: first.account } : {}),
    systemInOneWrite: true,
  };
  assertValidStep(step);
  return step;
}
