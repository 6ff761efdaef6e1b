import { AppError } from '../../../../lib/errors';
import { DEFAULT_PAGE_SIZE, decodePageCursor, encodePageCursor } from '../../../../lib/page-cursor';
import type { CardTransaction } from '../../cards/domain/card-transaction';
import type { Payment } from '../domain/payment';
import type { CardTransactionEntry, CardTransactionStore } from '../../cards/app/card-transaction-store';
import type { Caller } from '../../shared/app/payment-accounts';
import type { ListTransactionsCommand, TransactionQueries } from './transactions-query';

/** One row of the transaction list: a payment, or a card transaction (the reference's type CARD). */
export type TransactionEntry = { payment: Payment } | { card: CardTransaction };

const CARD_PREFIX = 'CardTransaction:';

function cardOf(entry: CardTransactionEntry): CardTransaction {
  const { decision: _d, declineReason: _r, pending: _p, releasing: _l, sources: _s, ...tx } = entry;
  return tx;
}

const isoOf = (date: string | undefined) => (date === undefined ? undefined : new Date(date).toISOString());

const positionOf = (e: TransactionEntry) => ('payment' in e ? e.payment : e.card);

/**
 * The transaction list with card transactions included, as the reference's GET /transactions
 * serves them. Both are listed by (createdAt, id) with the same cursor: each source gives its
 * next page after the cursor, and the merged page is the first `limit` of both. Filters a card
 * transaction cannot match (type, account identifiers, reference, a payment status other than
 * REFUNDED) leave the cards out; an agent's allowed accounts keep the cards they funded.
 */
const positionOfCustomer = (
  e: TransactionEntry,
): {
  customerId?: string;
  createdAt: string;
} => ('payment' in e
  ? { customerId: e.payment.customerId, createdAt: e.payment.createdAt }
  : { customerId: e.card.customerId, createdAt: e.card.createdAt });

export function createTransactionEntries(deps: { queries: TransactionQueries; cards: CardTransactionStore }) {
  /** One payment or approved card transaction; `visible` as for getTransaction, then the SCA history window. */
  async function get(
    caller: Caller,
    id: string,
    visible: (e: TransactionEntry) => boolean = () => true,
  ): Promise<TransactionEntry> {
    if (!id.startsWith(CARD_PREFIX)) {
      return { payment: await deps.queries.getTransaction(caller, id, (payment) => visible({ payment })) };
    }
    const entry = await deps.cards.get(caller.platformId, id);
    if (!entry || entry.decision !== 'APPROVED' || !visible({ card: cardOf(entry) })) {
      throw new AppError('TRANSACTION_NOT_FOUND', `Transaction ${id} not found`);
    }
    return { card: await deps.queries.gateOne(caller, cardOf(entry)) };
  }

  /** Filters that select some customers' data (the rest only narrow the platform's whole history). */
  const selects = (c: ListTransactionsCommand) =>
    [
      c.customerId,
      c.platformCustomerId,
      c.accountIdentifier,
      c.senderAccountIdentifier,
      c.receiverAccountIdentifier,
      c.reference,
      c.sourceAccountId,
      c.destinationAccountId,
      c.sourceUmaAddress,
      c.destinationUmaAddress,
      c.touchingAccountIds,
    ].some((f) => f !== undefined && f !== '');

  /** The SCA read gate, decided on the customers whose rows the page would contain (by data, whatever the filter). */
  async function list(command: ListTransactionsCommand) {
    return deps.queries.gatedByData({
      // An unreadable date is left to the payments' validation (400), which runs first.
      caller: command.caller,
      requestedStart: Number.isNaN(Date.parse(command.startDate ?? '')) ? command.startDate : isoOf(command.startDate),
      selects: selects(command),
      read: (startDate) => listOnce({ ...command, startDate }),
      rows: (found) => found.entries.map(positionOfCustomer),
    });
  }

  async function listOnce(command: ListTransactionsCommand) {
    const payments = await deps.queries.listTransactions(command);
    const limit = command.limit || DEFAULT_PAGE_SIZE;
    const cardsExcluded = command.type || command.accountIdentifier || command.senderAccountIdentifier
      || command.receiverAccountIdentifier
      || command.reference || (command.status && command.status !== 'REFUNDED');
    const sortOrder = command.sortOrder === 'asc' ? 'asc' : 'desc';
    // The SCA history window bounds card transactions as it bounds payments.
    const startDate = cardsExcluded
      ? undefined
      : await deps.queries.windowed(command.caller, command.customerId, isoOf(command.startDate));
    const cards = cardsExcluded ? { entries: [], totalCount: 0 } : await deps.cards.list(command.caller.platformId, {
      customerId: command.customerId,
      platformCustomerId: command.platformCustomerId,
      ...(command.status ? { statuses: [command.status] } : {}),
      ...(command.touchingAccountIds ? { accountIds: command.touchingAccountIds } : {}),
      startDate,
      endDate: isoOf(command.endDate),
      limit,
      sortOrder,
      ...(command.cursor ? { after: decodePageCursor(command.cursor) } : {}),
    });
    const sign = sortOrder === 'asc' ? 1 : -1;
    const merged: TransactionEntry[] = [
      ...payments.payments.map((payment) => ({ payment })),
      ...cards.entries.map((entry) => ({ card: cardOf(entry) })),
    ].sort((a, b) => {
      const x = positionOf(a);
      const y = positionOf(b);
      return sign
        * (x.createdAt === y.createdAt ? (x.id < y.id ? -1 : x.id > y.id ? 1 : 0) : x.createdAt < y.createdAt ? -1 : 1);
    });
    const page = merged.slice(0, limit);
    const hasMore = payments.hasMore || cards.entries.length > limit || merged.length > limit;
    const last = page[page.length - 1];
    return {
      entries: page,
      hasMore,
      totalCount: payments.totalCount + cards.totalCount,
      ...(hasMore && last ? { nextCursor: encodePageCursor(positionOf(last)) } : {}),
    };
  }

  return { get, list };
}

export type TransactionEntries = ReturnType<typeof createTransactionEntries>;
