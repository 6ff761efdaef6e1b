import type { CardTransactionRecord } from '../../gen/quotes_transactions/v1/cards';
import { CardTransaction } from './card-records';
import { contractJson } from './contract-json';

/** What the REST CardTransaction is rendered from (the domain record, less its bookkeeping). */
export interface CardTransactionView {
  id: string;
  cardId: string;
  customerId: string;
  platformCustomerId: string;
  issuerTransactionToken: string;
  status: string;
  merchant: { descriptor: string; mcc?: string; country?: string };
  /** The reference's Currency object. */
  currency: { code: string; name: string; symbol: string; decimals: number };
  accountId: string;
  authorizedAmount: number;
  settled: number;
  refunded: number;
  pulls: { count: number; totalAmount: number };
  settlements: { count: number; totalAmount: number };
  refunds: { count: number; totalAmount: number };
  direction?: 'DEBIT' | 'CREDIT';
  pendingPulls?: number;
  authorizedAt: string;
  lastEventAt?: string;
  createdAt: string;
  updatedAt: string;
}

/** The reference's CardTransaction, for responses and CARD_TRANSACTION.* webhooks alike. */
export function cardTransactionJson(t: CardTransactionView) {
  const money = (amount: number) => ({ amount, currency: t.currency });
  return contractJson(CardTransaction, {
    ...t,
    type: 'CARD', // the tag among a list's transactions; the view has none
    direction: t.direction ?? 'DEBIT', // a transaction without one is a debit
    // An empty merchant code or country is left out, as an absent one.
    merchant: { ...t.merchant, mcc: t.merchant.mcc || undefined, country: t.merchant.country || undefined },
    // The amounts are the domain's totals with the currency; settled and refunded only once there was one.
    authorizedAmount: money(t.authorizedAmount),
    settledAmount: t.settlements.count ? money(t.settled) : undefined,
    refundedAmount: t.refunds.count ? money(t.refunded) : undefined,
    // The domain's tallies under REST's names; the pending pulls are kept beside the tally.
    pullSummary: { ...t.pulls, pendingCount: t.pendingPulls ?? 0 },
    refundSummary: t.refunds,
    settlementSummary: t.settlements,
    lastEventAt: t.lastEventAt || undefined, // an empty time is left out, as an absent one
  });
}

/** The REST CardTransaction of its typed record (the transaction list and GET /transactions/{id}). */
export function cardTransactionRecordJson(r: CardTransactionRecord) {
  const tally = (t: { count: number; totalAmount: number } | undefined) => ({
    count: t?.count ?? 0,
    totalAmount: t?.totalAmount ?? 0,
  });
  return cardTransactionJson({
    ...r,
    merchant: {
      descriptor: r.merchant?.descriptor ?? '',
      ...(r.merchant?.mcc ? { mcc: r.merchant.mcc } : {}),
      ...(r.merchant?.country ? { country: r.merchant.country } : {}),
    },
    currency: r.currency ?? { code: '', name: '', symbol: '', decimals: 0 },
    direction: r.direction === 'CREDIT' ? 'CREDIT' : 'DEBIT',
    pulls: tally(r.pulls),
    settlements: tally(r.settlements),
    refunds: tally(r.refunds),
  });
}
