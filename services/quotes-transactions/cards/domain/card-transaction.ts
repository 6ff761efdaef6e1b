import { CARD_DECLINE_REASONS, CARD_TRANSACTION_STATUSES } from '../../../../lib/contract/card-types';
import type { Card } from './card';
import { ledgerStep, systemAccount, type LedgerStep } from '../../ledger/domain/ledger-postings';

export type CardTransactionStatus = (typeof CARD_TRANSACTION_STATUSES)[number];
export type CardDeclineReason = (typeof CARD_DECLINE_REASONS)[number];

/**
 * What the issuer asked for: an authorization holds; a balance inquiry is a zero-amount
 * authorization (nothing held); a financial (single-message) authorization debits in one step;
 * the credit kinds credit the funding source in one step (direction CREDIT).
 */
export const CARD_AUTHORIZATION_KINDS = [
  'AUTHORIZATION',
  'BALANCE_INQUIRY',
  'FINANCIAL_AUTHORIZATION',
  'CREDIT_AUTHORIZATION',
  'FINANCIAL_CREDIT_AUTHORIZATION',
  'CREDIT_AUTHORIZATION_ADVICE',
] as const;
export type CardAuthorizationKind = (typeof CARD_AUTHORIZATION_KINDS)[number];

export const isCreditKind = (kind: CardAuthorizationKind) =>
  kind.startsWith('CREDIT_') || kind === 'FINANCIAL_CREDIT_AUTHORIZATION';

export interface CardMerchant {
  descriptor: string;
  mcc?: string;
  country?: string;
}

/** A running count and sum (the reference's pull, settlement and refund summaries). */
export interface Tally {
  count: number;
  totalAmount: number;
}

/**
 * A card authorization and everything reconciled against it. The money: the authorization holds
 * `authorizedAmount` out of one funding source (`accountId`) into the platform's card-holds
 * account; clearings move held money to the card network (and pull from the source any amount
 * above the hold); a zero-amount clearing releases what is still held; returns push money back.
 * `held` is what the hold still keeps.
 */
export interface CardTransaction {
  id: string;
  platformId: string;
  cardId: string;
  customerId: string;
  platformCustomerId: string;
  issuerTransactionToken: string;
  status: CardTransactionStatus;
  merchant: CardMerchant;
  currency: string;
  accountId: string;
  authorizedAmount: number;
  held: number;
  settled: number;
  refunded: number;
  pulls: Tally;
  settlements: Tally;
  refunds: Tally;
  /** Absent on records written before the other kinds existed: an AUTHORIZATION. */
  kind?: CardAuthorizationKind;
  /** CREDIT for the credit kinds; absent: DEBIT. */
  direction?: 'DEBIT' | 'CREDIT';
  /** The amounts of the returns not reversed, oldest first (a return reversal undoes the last). */
  returnAmounts?: number[];
  /** Pulls the issuer has not confirmed yet (the reference's pullSummary.pendingCount). */
  pendingPulls?: number;
  /** When the issuer's confirmation of a pending pull is due (the sandbox's delayed pull). */
  pullConfirmAt?: string;
  /** Set when status is EXCEPTION: what could not be reconciled. */
  exceptionReason?: string;
  /** Events applied so far: each names its ledger step `<id>/event/<n>`. */
  events: number;
  authorizedAt: string;
  lastEventAt?: string;
  createdAt: string;
  updatedAt: string;
}

export const holdsAccount = (currency: string, platformId: string) => systemAccount('card-holds', currency, platformId);
export const networkAccount = (currency: string, platformId: string) =>
  systemAccount('card-network', currency, platformId);

/** Why a card cannot authorize at all (before any balance is read), or undefined. */
export function cardDeclineReason(card: Card, currency: string): CardDeclineReason | undefined {
  if (card.state === 'FROZEN') return 'CARD_PAUSED';
  if (card.state !== 'ACTIVE') return 'CARD_NOT_ACTIVE';
  if (currency !== card.currency) return 'CURRENCY_MISMATCH';
  return undefined;
}

/** A card transaction's `amount` moved on one funding source (`attempt`: its place in the card's order). */
export interface FundingSourceMove {
  transactionId: string;
  attempt: number;
  platformId: string;
  accountId: string;
  currency: string;
  amount: number;
}

/** A move on one funding source for a decision of `kind`. */
export interface DecisionMove extends FundingSourceMove {
  kind: CardAuthorizationKind;
}

/** The hold of an authorization on one funding source. */
export function holdStep(move: FundingSourceMove): LedgerStep {
  const { transactionId, attempt, platformId, accountId, currency, amount } = move;
  return ledgerStep(`${transactionId}/hold/${attempt}`, [
    { account: accountId, currency, amount: -amount },
    { account: holdsAccount(currency, platformId), currency, amount },
  ]);
}

/**
 * The ledger step a decision of `kind` applies on one funding source (none for a balance inquiry):
 * a hold into card-holds, a single-message debit straight to the card network, or a credit from
 * the card network (new money: refused on a closed account, so the next source is tried).
 */
export function decisionStep({ kind, ...move }: DecisionMove): LedgerStep | undefined {
  const { transactionId, attempt, platformId, accountId, currency, amount } = move;
  if (kind === 'BALANCE_INQUIRY' || amount === 0) return undefined;
  if (kind === 'AUTHORIZATION') return holdStep(move);
  const network = networkAccount(currency, platformId);
  const key = `${transactionId}/hold/${attempt}`;
  if (isCreditKind(kind)) {
    return ledgerStep(key, [{ account: accountId, currency, amount }, { account: network, currency, amount: -amount }]);
  }
  return ledgerStep(key, [{ account: accountId, currency, amount: -amount }, { account: network, currency, amount }]);
}

/** Undoes `decisionStep` (a decision that never completed); a credit is taken back with a guarded debit. */
export function undoDecisionStep({ kind, ...move }: DecisionMove): LedgerStep | undefined {
  const { transactionId, attempt, platformId, accountId, currency, amount } = move;
  if (kind === 'BALANCE_INQUIRY' || amount === 0) return undefined;
  if (kind === 'AUTHORIZATION') return releaseHoldStep(move);
  const network = networkAccount(currency, platformId);
  const key = `${transactionId}/release/${attempt}`;
  if (isCreditKind(kind)) {
    return ledgerStep(key, [{ account: accountId, currency, amount: -amount }, { account: network, currency, amount }]);
  }
  return ledgerStep(key, [{ account: network, currency, amount: -amount }, { account: accountId, currency, amount }], {
    returnsMoney: true,
  });
}

/** The transaction a decision of `kind` records once its step applied on `accountId`. */
export function decidedTransaction(
  tx: CardTransaction,
  kind: CardAuthorizationKind,
  accountId: string,
): CardTransaction {
  const amount = tx.authorizedAmount;
  const base: CardTransaction = { ...tx, accountId, kind };
  switch (kind) {
    case 'AUTHORIZATION':
      return { ...base, status: 'AUTHORIZED', held: amount };
    case 'BALANCE_INQUIRY':
      return { ...base, status: 'AUTHORIZED', held: 0 };
    case 'FINANCIAL_AUTHORIZATION':
      return {
        ...base,
        status: 'SETTLED',
        held: 0,
        settled: amount,
        settlements: tally(tx.settlements, amount),
        pulls: tally(tx.pulls, amount),
        lastEventAt: tx.authorizedAt,
      };
    default:
      return {
        ...base,
        direction: 'CREDIT',
        status: 'SETTLED',
        held: 0,
        settled: amount,
        settlements: tally(tx.settlements, amount),
        lastEventAt: tx.authorizedAt,
      };
  }
}

/** Gives back a hold placed by a decision that never completed (a crash between the hold and its record). */
export function releaseHoldStep(move: FundingSourceMove): LedgerStep {
  const { transactionId, attempt, platformId, accountId, currency, amount } = move;
  return ledgerStep(`${transactionId}/release/${attempt}`, [
    { account: holdsAccount(currency, platformId), currency, amount: -amount },
    { account: accountId, currency, amount },
  ], { returnsMoney: true });
}

/**
 * One reconciliation event's effect: the ledger step (if money moves) and the transaction as it
 * will be once the step applied; `ifRefused` is the transaction when the step's guarded debit is
 * refused (a post-hoc pull the source no longer covers).
 */
export interface EventPlan {
  step?: LedgerStep;
  next: CardTransaction;
  ifRefused?: CardTransaction;
  /** Sends the transaction's webhook even though its status stays (an advice re-sizing it). */
  announce?: boolean;
  /** When the event was claimed (recorded pending): its step is applied and replayed from then. */
  startedAt?: string;
}

const tally = (t: Tally, amount: number): Tally => ({ count: t.count + 1, totalAmount: t.totalAmount + amount });

/**
 * The status once nothing is held any more: REFUNDED when everything that settled was returned, else SETTLED. While
 * part of the authorization is still held it stays open (a return never closes it), so the stale-hold expiry and
 * later clearings still find it.
 */
function closedStatus(tx: Pick<CardTransaction, 'settled' | 'refunded'>): CardTransactionStatus {
  return tx.settled > 0 && tx.refunded === tx.settled ? 'REFUNDED' : 'SETTLED';
}

function stepKey(tx: CardTransaction): string {
  return `${tx.id}/event/${tx.events}`;
}

/**
 * A clearing of `amount` against the open hold. Up to the hold: held money goes to the network
 * (PARTIALLY_SETTLED while some stays held, SETTLED once none does). Above it (an over-authorization,
 * the reference's post-hoc pull): the rest is pulled from the funding source, or EXCEPTION when the
 * source no longer covers it. Zero: the authorization expires, releasing what is held.
 */
export function clearingPlan(tx: CardTransaction, amount: number, at: string): EventPlan {
  assertOpen(tx, 'nothing to clear');
  const { platformId, currency, accountId } = tx;
  const base = { ...tx, events: tx.events + 1, lastEventAt: at, updatedAt: at };
  const holds = holdsAccount(currency, platformId);
  const network = networkAccount(currency, platformId);
  if (amount === 0) {
    const next: CardTransaction = { ...base, held: 0, status: closedStatus(tx) };
    return {
      next,
      step: tx.held > 0
        ? ledgerStep(stepKey(tx), [{ account: holds, currency, amount: -tx.held }, {
          account: accountId,
          currency,
          amount: tx.held,
        }], { returnsMoney: true })
        : undefined,
    };
  }
  const fromHold = Math.min(amount, tx.held);
  const pulled = amount - fromHold;
  const held = tx.held - fromHold;
  const next: CardTransaction = {
    ...base,
    held,
    settled: tx.settled + amount,
    settlements: tally(tx.settlements, amount),
    pulls: pulled > 0 ? tally(tx.pulls, pulled) : tx.pulls,
    status: held > 0 ? 'PARTIALLY_SETTLED' : 'SETTLED',
  };
  if (pulled === 0) {
    return {
      next,
      step: ledgerStep(stepKey(tx), [{ account: holds, currency, amount: -fromHold }, {
        account: network,
        currency,
        amount: fromHold,
      }]),
    };
  }
  // The guarded debit goes first: refused, nothing moved, and the held part is still held.
  const step = ledgerStep(stepKey(tx), [
    { account: accountId, currency, amount: -pulled },
    { account: holds, currency, amount: -fromHold },
    { account: network, currency, amount },
  ]);
  const ifRefused: CardTransaction = {
    ...base,
    status: 'EXCEPTION',
    exceptionReason:
      `the post-hoc pull of ${pulled} ${currency} above the ${tx.held} held failed: ${accountId} no longer covers it`,
  };
  return { step, next, ifRefused };
}

/** A return of `amount` (at most what settled and was not refunded yet): money back to the funding source. */
export function returnPlan(tx: CardTransaction, amount: number, at: string): EventPlan {
  if (tx.direction === 'CREDIT') throw new Error(`${tx.id} is a credit: nothing to return`);
  const refundable = tx.settled - tx.refunded;
  if (tx.settlements.count === 0 || refundable <= 0) throw new Error(`${tx.id} has nothing settled to return`);
  if (amount <= 0 || amount > refundable) throw new Error(`${tx.id} can return at most ${refundable}`);
  const refunded = tx.refunded + amount;
  const next: CardTransaction = {
    ...tx,
    events: tx.events + 1,
    lastEventAt: at,
    updatedAt: at,
    refunded,
    refunds: tally(tx.refunds, amount),
    returnAmounts: [...(tx.returnAmounts ?? []), amount],
    status: tx.held === 0 && refunded === tx.settled ? 'REFUNDED' : tx.status,
  };
  const step = ledgerStep(stepKey(tx), [
    { account: networkAccount(tx.currency, tx.platformId), currency: tx.currency, amount: -amount },
    { account: tx.accountId, currency: tx.currency, amount },
  ], { returnsMoney: true });
  return { step, next };
}

function assertOpen(tx: CardTransaction, what: string): void {
  if ((tx.status !== 'AUTHORIZED' && tx.status !== 'PARTIALLY_SETTLED') || tx.direction === 'CREDIT') {
    throw new Error(`${tx.id} is ${tx.status}: ${what}`);
  }
}

/**
 * An authorization advice re-sizing the open authorization to a new total `amount`: the hold grows
 * by a guarded debit of the difference (EXCEPTION, nothing moved, when the source no longer covers
 * it, or when `growthRefused` says why it may not fund more: an embedded wallet's delegated key) or
 * shrinks by giving the difference back. It cannot shrink below what already settled from it.
 */
export function advicePlan(tx: CardTransaction, amount: number, at: string, growthRefused?: string): EventPlan {
  assertOpen(tx, 'no open authorization to re-size');
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new Error('the new total must be a positive integer');
  const delta = amount - tx.authorizedAmount;
  const held = tx.held + delta;
  if (held < 0) {
    throw new Error(
      `${tx.id} already settled ${
        tx.authorizedAmount - tx.held
      } of its authorization: it cannot be re-sized to ${amount}`,
    );
  }
  const { platformId, currency, accountId } = tx;
  const holds = holdsAccount(currency, platformId);
  const base = { ...tx, events: tx.events + 1, lastEventAt: at, updatedAt: at };
  const next: CardTransaction = {
    ...base,
    authorizedAmount: amount,
    held,
    status: held === 0 && tx.settlements.count > 0 ? closedStatus(tx) : tx.status,
  };
  if (delta === 0) return { next, announce: true };
  if (delta < 0) {
    return {
      next,
      announce: true,
      step: ledgerStep(stepKey(tx), [{ account: holds, currency, amount: delta }, {
        account: accountId,
        currency,
        amount: -delta,
      }], { returnsMoney: true }),
    };
  }
  const needs = `the authorization advice re-sizing to ${amount} ${currency} needs ${delta} more held`;
  if (growthRefused) {
    return {
      next: {
        ...base,
        status: 'EXCEPTION',
        exceptionReason: `${needs}: ${accountId} may not fund it (${growthRefused})`,
      },
      announce: true,
    };
  }
  const step = ledgerStep(stepKey(tx), [{ account: accountId, currency, amount: -delta }, {
    account: holds,
    currency,
    amount: delta,
  }]);
  const ifRefused: CardTransaction = {
    ...base,
    status: 'EXCEPTION',
    exceptionReason: `${needs}: ${accountId} no longer covers it`,
  };
  return { step, next, ifRefused, announce: true };
}

/**
 * A return reversal: the last return not reversed is taken back from the funding source to the
 * network (a guarded debit: EXCEPTION, nothing moved, when the source no longer covers it).
 */
export function returnReversalPlan(tx: CardTransaction, at: string): EventPlan {
  if (tx.refunded <= 0 || tx.status === 'EXCEPTION') {
    throw new Error(`${tx.id} is ${tx.status} with no return to reverse`);
  }
  const returns = tx.returnAmounts?.length ? tx.returnAmounts : [tx.refunded];
  const amount = returns[returns.length - 1];
  const refunded = tx.refunded - amount;
  const base = { ...tx, events: tx.events + 1, lastEventAt: at, updatedAt: at };
  const next: CardTransaction = {
    ...base,
    refunded,
    refunds: { count: tx.refunds.count - 1, totalAmount: tx.refunds.totalAmount - amount },
    returnAmounts: returns.slice(0, -1),
    status: refunded > 0 && refunded === tx.settled ? 'REFUNDED' : tx.held > 0 ? 'PARTIALLY_SETTLED' : 'SETTLED',
  };
  const step = ledgerStep(stepKey(tx), [
    { account: tx.accountId, currency: tx.currency, amount: -amount },
    { account: networkAccount(tx.currency, tx.platformId), currency: tx.currency, amount },
  ]);
  const ifRefused: CardTransaction = {
    ...base,
    status: 'EXCEPTION',
    exceptionReason: `the return reversal of ${amount} ${tx.currency} failed: ${tx.accountId} no longer covers it`,
  };
  return { step, next, ifRefused };
}

/** A stale authorization (never cleared in time) expires: what is still held goes back, as a zero-amount clearing. */
export function expiryPlan(tx: CardTransaction, at: string): EventPlan {
  return clearingPlan(tx, 0, at);
}

/**
 * The issuer's confirmation of a pending pull: CONFIRMED clears the pending count; FAILED (the
 * sandbox's suffix 006) gives back what is still held and ends in EXCEPTION.
 */
export function pullConfirmationPlan(tx: CardTransaction, outcome: 'CONFIRMED' | 'FAILED', at: string): EventPlan {
  const base = { ...tx, events: tx.events + 1, lastEventAt: at, updatedAt: at, pendingPulls: 0 };
  delete base.pullConfirmAt;
  if (outcome === 'CONFIRMED') return { next: base, announce: false };
  assertOpen(tx, 'no pull to fail');
  const { platformId, currency, accountId } = tx;
  const exception: CardTransaction = {
    ...base,
    status: 'EXCEPTION',
    exceptionReason: `the issuer reported the pull from ${accountId} FAILED after it was approved`,
  };
  if (tx.held === 0) return { next: exception };
  return {
    next: { ...exception, held: 0 },
    step: ledgerStep(stepKey(tx), [{ account: holdsAccount(currency, platformId), currency, amount: -tx.held }, {
      account: accountId,
      currency,
      amount: tx.held,
    }], { returnsMoney: true }),
  };
}
