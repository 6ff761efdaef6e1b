import type { CardTransactionRecord } from '../../gen/quotes_transactions/v1/cards';
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
  return {
    type: 'CARD' as const,
    id: t.id,
    cardId: t.cardId,
    customerId: t.customerId,
    platformCustomerId: t.platformCustomerId,
    issuerTransactionToken: t.issuerTransactionToken,
    status: t.status,
    direction: t.direction ?? 'DEBIT',
    merchant: {
      descriptor: t.merchant.descriptor,
      ...(t.merchant.mcc ? { mcc: t.merchant.mcc } : {}),
      ...(t.merchant.country ? { country: t.merchant.country } : {}),
    },
    authorizedAmount: money(t.authorizedAmount),
    ...(t.settlements.count ? { settledAmount: money(t.settled) } : {}),
    ...(t.refunds.count ? { refundedAmount: money(t.refunded) } : {}),
    accountId: t.accountId,
    pullSummary: { count: t.pulls.count, totalAmount: t.pulls.totalAmount, pendingCount: t.pendingPulls ?? 0 },
    refundSummary: { ...t.refunds },
    settlementSummary: { ...t.settlements },
    authorizedAt: t.authorizedAt,
    ...(t.lastEventAt ? { lastEventAt: t.lastEventAt } : {}),
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
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
