import { AppError } from '../../../lib/errors';
import type { Payment } from '../domain/payment';
import { REFERENCE_STATUSES } from '../domain/transaction-states';
import type { Caller } from './payment-accounts';
import type { PaymentPage, PaymentStore, TransactionQuery } from './payment-store';

export interface ListTransactionsCommand extends Omit<TransactionQuery, 'limit' | 'after' | 'sortOrder'> {
  caller: Caller;
  limit?: number;
  cursor?: string;
  sortOrder?: string;
}

const DEFAULT_LIMIT = 20;

function encodeCursor(p: Payment): string {
  return Buffer.from(JSON.stringify({ c: p.createdAt, i: p.id })).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: string; id: string } {
  try {
    const { c, i } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { c: unknown; i: unknown };
    if (typeof c === 'string' && typeof i === 'string') return { createdAt: c, id: i };
  } catch { /* reported below */ }
  throw AppError.invalidInput('Invalid cursor', [{ field: 'cursor', message: 'must be a nextCursor returned by a previous page' }]);
}

function validDate(field: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw AppError.invalidInput(`Invalid ${field}`, [{ field, message: 'must be an ISO 8601 date-time', constraint: { format: 'date-time' } }]);
  return new Date(ms).toISOString();
}

/** Reading transactions: one by id (TRANSACTION_NOT_FOUND), or a filtered, cursor-paginated list. */
export function createTransactionQueries(deps: { payments: PaymentStore }) {
  async function getTransaction(caller: Caller, id: string): Promise<Payment> {
    const p = await deps.payments.get(caller.platformId, id);
    if (!p) throw new AppError('TRANSACTION_NOT_FOUND', `Transaction ${id} not found`);
    return p;
  }

  async function getQuote(caller: Caller, quoteId: string): Promise<Payment> {
    const p = await deps.payments.getByQuote(caller.platformId, quoteId);
    if (!p?.quote) throw new AppError('QUOTE_NOT_FOUND', `Quote ${quoteId} not found`);
    return p;
  }

  async function listTransactions(command: ListTransactionsCommand): Promise<PaymentPage & { nextCursor?: string }> {
    const { caller, cursor, sortOrder, limit, ...filters } = command;
    const errors = [];
    if (filters.status && !(REFERENCE_STATUSES as readonly string[]).includes(filters.status)) errors.push({ field: 'status', message: `must be one of ${REFERENCE_STATUSES.join(', ')}`, constraint: { enum: [...REFERENCE_STATUSES] } });
    if (filters.type && !['INCOMING', 'OUTGOING'].includes(filters.type)) errors.push({ field: 'type', message: 'must be INCOMING or OUTGOING', constraint: { enum: ['INCOMING', 'OUTGOING'] } });
    if (sortOrder && !['asc', 'desc'].includes(sortOrder)) errors.push({ field: 'sortOrder', message: 'must be asc or desc', constraint: { enum: ['asc', 'desc'] } });
    if (limit !== undefined && limit !== 0 && !(Number.isInteger(limit) && limit >= 1 && limit <= 100)) errors.push({ field: 'limit', message: 'must be between 1 and 100' });
    if (errors.length) throw AppError.invalidInput('Invalid transaction filters', errors);
    const query: TransactionQuery = {
      ...filters,
      startDate: validDate('startDate', filters.startDate),
      endDate: validDate('endDate', filters.endDate),
      limit: limit || DEFAULT_LIMIT,
      sortOrder: sortOrder === 'asc' ? 'asc' : 'desc',
      ...(cursor ? { after: decodeCursor(cursor) } : {}),
    };
    const page = await deps.payments.list(caller.platformId, query);
    const last = page.payments[page.payments.length - 1];
    return { ...page, ...(page.hasMore && last ? { nextCursor: encodeCursor(last) } : {}) };
  }

  return { getTransaction, getQuote, listTransactions };
}

export type TransactionQueries = ReturnType<typeof createTransactionQueries>;
