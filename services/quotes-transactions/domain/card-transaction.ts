import { CARD_DECLINE_REASONS, CARD_TRANSACTION_STATUSES } from '../../../lib/contract/card-types';
import type { Card } from './card';
import { ledgerStep, systemAccount, type LedgerStep } from './ledger-postings';

export type CardTransactionStatus = (typeof CARD_TRANSACTION_STATUSES)[number];
export type CardDeclineReason = (typeof CARD_DECLINE_REASONS)[number];

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
export const networkAccount = (currency: string, platformId: string) => systemAccount('card-network', currency, platformId);

/** Why a card cannot authorize at all (before any balance is read), or undefined. */
export function cardDeclineReason(card: Card, currency: string): CardDeclineReason | undefined {
  if (card.state === 'FROZEN') return 'CARD_PAUSED';
  if (card.state !== 'ACTIVE') return 'CARD_NOT_ACTIVE';
  if (currency !== card.currency) return 'CURRENCY_MISMATCH';
  return undefined;
}

/** The hold of an authorization on one funding source (`attempt`: its place in the card's order). */
export function holdStep(transactionId: string, attempt: number, platformId: string, accountId: string, currency: string, amount: number): LedgerStep {
  return ledgerStep(`${transactionId}/hold/${attempt}`, [
    { account: accountId, currency, amount: -amount },
    { account: holdsAccount(currency, platformId), currency, amount },
  ]);
}

/** Gives back a hold placed by a decision that never completed (a crash between the hold and its record). */
export function releaseHoldStep(transactionId: string, attempt: number, platformId: string, accountId: string, currency: string, amount: number): LedgerStep {
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
}

const tally = (t: Tally, amount: number): Tally => ({ count: t.count + 1, totalAmount: t.totalAmount + amount });

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
  if (tx.status !== 'AUTHORIZED' && tx.status !== 'PARTIALLY_SETTLED') throw new Error(`${tx.id} is ${tx.status}: nothing to clear`);
  const { platformId, currency, accountId } = tx;
  const base = { ...tx, events: tx.events + 1, lastEventAt: at, updatedAt: at };
  const holds = holdsAccount(currency, platformId);
  const network = networkAccount(currency, platformId);
  if (amount === 0) {
    const next: CardTransaction = { ...base, held: 0, status: 'SETTLED' };
    return { next, step: tx.held > 0 ? ledgerStep(stepKey(tx), [{ account: holds, currency, amount: -tx.held }, { account: accountId, currency, amount: tx.held }], { returnsMoney: true }) : undefined };
  }
  const fromHold = Math.min(amount, tx.held);
  const pulled = amount - fromHold;
  const held = tx.held - fromHold;
  const next: CardTransaction = {
    ...base, held, settled: tx.settled + amount, settlements: tally(tx.settlements, amount),
    pulls: pulled > 0 ? tally(tx.pulls, pulled) : tx.pulls, status: held > 0 ? 'PARTIALLY_SETTLED' : 'SETTLED',
  };
  if (pulled === 0) {
    return { next, step: ledgerStep(stepKey(tx), [{ account: holds, currency, amount: -fromHold }, { account: network, currency, amount: fromHold }]) };
  }
  // The guarded debit goes first: refused, nothing moved, and the held part is still held.
  const step = ledgerStep(stepKey(tx), [
    { account: accountId, currency, amount: -pulled },
    { account: holds, currency, amount: -fromHold },
    { account: network, currency, amount },
  ]);
  const ifRefused: CardTransaction = {
    ...base, status: 'EXCEPTION',
    exceptionReason: `the post-hoc pull of ${pulled} ${currency} above the ${tx.held} held failed: ${accountId} no longer covers it`,
  };
  return { step, next, ifRefused };
}

/** A return of `amount` (at most what settled and was not refunded yet): money back to the funding source. */
export function returnPlan(tx: CardTransaction, amount: number, at: string): EventPlan {
  const refundable = tx.settled - tx.refunded;
  if (tx.settlements.count === 0 || refundable <= 0) throw new Error(`${tx.id} has nothing settled to return`);
  if (amount <= 0 || amount > refundable) throw new Error(`${tx.id} can return at most ${refundable}`);
  const refunded = tx.refunded + amount;
  const next: CardTransaction = {
    ...tx, events: tx.events + 1, lastEventAt: at, updatedAt: at, refunded, refunds: tally(tx.refunds, amount),
    status: refunded === tx.settled ? 'REFUNDED' : tx.status,
  };
  const step = ledgerStep(stepKey(tx), [
    { account: networkAccount(tx.currency, tx.platformId), currency: tx.currency, amount: -amount },
    { account: tx.accountId, currency: tx.currency, amount },
  ], { returnsMoney: true });
  return { step, next };
}
