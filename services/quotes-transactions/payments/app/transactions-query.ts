import { AppError, type FieldError } from '../../../../lib/errors';
import { DEFAULT_PAGE_SIZE, decodePageCursor, nextPageCursor, pageLimitError } from '../../../../lib/page-cursor';
import { historyWindowStart, reachesBeyondWindow } from '../domain/history-window';
import type { Payment } from '../domain/payment';
import {
  QUOTE_STATUSES,
  TRANSACTION_STATUSES,
  transactionStatusesOf,
  type QuoteStatus,
} from '../domain/transaction-states';
import type { Caller } from '../../shared/app/payment-accounts';
import type { PaymentPage, PaymentStore, TransactionQuery } from './payment-store';

interface PageRequest {
  caller: Caller;
  limit?: number;
  cursor?: string;
}

export interface ListTransactionsCommand
  extends Omit<TransactionQuery, 'limit' | 'after' | 'sortOrder' | 'statuses' | 'quotesOnly'>, PageRequest {
  sortOrder?: string;
}

export interface ListQuotesCommand extends PageRequest {
  customerId?: string;
  sendingAccountId?: string;
  receivingAccountId?: string;
  sendingUmaAddress?: string;
  receivingUmaAddress?: string;
  status?: string;
  createdAfter?: string;
  createdBefore?: string;
}

function validDate(field: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) {
    throw AppError.invalidInput(`Invalid ${field}`, [{
      field,
      message: 'must be an ISO 8601 date-time',
      constraint: { format: 'date-time' },
    }]);
  }
  return new Date(ms).toISOString();
}

function checkEnum(errors: FieldError[], field: string, value: string | undefined, allowed: readonly string[]): void {
  if (value && !allowed.includes(value)) {
    errors.push({ field, message: `must be one of ${allowed.join(', ')}`, constraint: { enum: [...allowed] } });
  }
}

function checkLimit(errors: FieldError[], limit: number | undefined): void {
  const error = pageLimitError(limit);
  if (error) errors.push(error);
}

/** Whether a customer is under SCA and has a live SCA login session (the accounts service knows). */
export type ScaReadGate = (
  caller: Caller,
  customerId: string,
) => Promise<{ scaCustomer: boolean; sessionLive?: boolean }>;

function sessionRequired(): AppError {
  return new AppError(
    'SCA_SESSION_REQUIRED',
    "Transactions and quotes older than the SCA window need the customer's "
      + 'live SCA login session: complete an SCA login, then read again',
  );
}

/** Reading transactions and quotes: one by id (…_NOT_FOUND), or a filtered, cursor-paginated list. */
export function createTransactionQueries(deps: { payments: PaymentStore; scaReads?: ScaReadGate; clock?: () => Date }) {
  const now = () => (deps.clock ?? (() => new Date()))();
  /** True when the read of `customerId`'s history beyond the window needs a session it lacks. */
  async function lacksSession(caller: Caller, customerId: string): Promise<boolean> {
    if (!deps.scaReads) return false;
    const { scaCustomer, sessionLive } = await deps.scaReads(caller, customerId);
    return scaCustomer && !sessionLive;
  }

  /**
   * One transaction (a payment or a card transaction) or quote of an SCA customer created before the window needs the
   * customer's session.
   */
  async function gateOne<T extends { customerId?: string; createdAt: string }>(caller: Caller, p: T): Promise<T> {
    if (p.customerId && p.createdAt < historyWindowStart(now()) && (await lacksSession(caller, p.customerId))) {
      throw sessionRequired();
    }
    return p;
  }

  /**
   * `visible`: whether the reader may know of it (an agent: its customer's, its accounts); checked before the SCA gate,
   * so a 409 never tells a stranger it exists.
   */
  async function getTransaction(
    caller: Caller,
    id: string,
    visible: (p: Payment) => boolean = () => true,
  ): Promise<Payment> {
    const p = await deps.payments.get(caller.platformId, id);
    if (!p || !visible(p)) throw new AppError('TRANSACTION_NOT_FOUND', `Transaction ${id} not found`);
    return gateOne(caller, p);
  }

  /**
   * The customer a list names: its customerId, or the customer behind its platformCustomerId (read from
   * the newest payment carrying it: a platformCustomerId is one customer's on the platform).
   */
  async function namedCustomer(
    caller: Caller,
    filters: { customerId?: string; platformCustomerId?: string },
  ): Promise<string | undefined> {
    if (filters.customerId || !filters.platformCustomerId) return filters.customerId;
    const { payments } = await deps.payments.list(caller.platformId, {
      platformCustomerId: filters.platformCustomerId,
      limit: 1,
      sortOrder: 'desc',
    });
    return payments[0]?.customerId || undefined;
  }

  /**
   * An SCA customer's history without a session: an explicit start before the window is refused, no start reads the
   * window.
   */
  async function windowed(
    caller: Caller,
    customerId: string | undefined,
    startDate: string | undefined,
  ): Promise<string | undefined> {
    if (!customerId || !reachesBeyondWindow(startDate, now()) || !(await lacksSession(caller, customerId))) {
      return startDate;
    }
    if (startDate !== undefined) throw sessionRequired();
    return historyWindowStart(now());
  }

  /**
   * The gate decided by data: whether rows a list would answer include history before the window of
   * an SCA customer without a live session (each customer looked up once). Whatever filter selected
   * them (a customer, an account, an account identifier, a UMA address, a reference), the answer's
   * customers decide.
   */
  async function holdsGatedHistory(
    caller: Caller,
    rows: Array<{ customerId?: string; createdAt: string }>,
  ): Promise<boolean> {
    const windowStart = historyWindowStart(now());
    const customers = new Set(rows.filter((r) => r.customerId && r.createdAt < windowStart).map((r) => r.customerId!));
    for (const customerId of customers) if (await lacksSession(caller, customerId)) return true;
    return false;
  }

  /**
   * A filtered list that may reach before the window: read it; if its rows hold gated history, an
   * explicit start is refused (409) and a list without one is read again from the window's start.
   * A list naming nobody (the platform's whole history, by date, status or type only) is not gated.
   */
  async function gatedByData<T>(request: {
    caller: Caller;
    requestedStart?: string;
    selects: boolean;
    read: (startDate: string | undefined) => Promise<T>;
    rows: (result: T) => Array<{ customerId?: string; createdAt: string }>;
  }): Promise<T> {
    const result = await request.read(request.requestedStart);
    if (!request.selects || !reachesBeyondWindow(request.requestedStart, now())) return result;
    if (!(await holdsGatedHistory(request.caller, request.rows(result)))) return result;
    if (request.requestedStart !== undefined) throw sessionRequired();
    return request.read(historyWindowStart(now()));
  }

  async function getQuote(caller: Caller, quoteId: string): Promise<Payment> {
    const p = await deps.payments.getByQuote(caller.platformId, quoteId);
    if (!p?.quote) throw new AppError('QUOTE_NOT_FOUND', `Quote ${quoteId} not found`);
    return gateOne(caller, p);
  }

  async function page(
    caller: Caller,
    query: TransactionQuery,
    cursor?: string,
  ): Promise<PaymentPage & { nextCursor?: string }> {
    const found = await deps.payments.list(caller.platformId, {
      ...query,
      ...(cursor ? { after: decodePageCursor(cursor) } : {}),
    });
    const nextCursor = nextPageCursor(found.payments, found.hasMore);
    return { ...found, ...(nextCursor ? { nextCursor } : {}) };
  }

  async function listTransactions(command: ListTransactionsCommand): Promise<PaymentPage & { nextCursor?: string }> {
    const { caller, cursor, sortOrder, limit, ...filters } = command;
    const errors: FieldError[] = [];
    checkEnum(errors, 'status', filters.status, TRANSACTION_STATUSES);
    checkEnum(errors, 'type', filters.type, ['INCOMING', 'OUTGOING']);
    checkEnum(errors, 'sortOrder', sortOrder, ['asc', 'desc']);
    checkLimit(errors, limit);
    if (errors.length) throw AppError.invalidInput('Invalid transaction filters', errors);
    const requestedStart = validDate('startDate', filters.startDate);
    const startDate = reachesBeyondWindow(requestedStart, now())
      ? await windowed(caller, await namedCustomer(caller, filters), requestedStart)
      : requestedStart;
    return page(caller, {
      ...filters,
      startDate,
      endDate: validDate('endDate', filters.endDate),
      limit: limit || DEFAULT_PAGE_SIZE,
      sortOrder: sortOrder === 'asc' ? 'asc' : 'desc',
    }, cursor);
  }

  async function listQuotes(command: ListQuotesCommand): Promise<PaymentPage & { nextCursor?: string }> {
    const { caller, cursor, limit, status } = command;
    const errors: FieldError[] = [];
    checkEnum(errors, 'status', status, QUOTE_STATUSES);
    checkLimit(errors, limit);
    if (errors.length) throw AppError.invalidInput('Invalid quote filters', errors);
    const createdAfter = await windowed(caller, command.customerId, validDate('createdAfter', command.createdAfter));
    const endDate = validDate('createdBefore', command.createdBefore);
    return gatedByData({
      caller,
      requestedStart: createdAfter,
      rows: (found) => found.payments,
      selects: [
        command.customerId,
        command.sendingAccountId,
        command.receivingAccountId,
        command.sendingUmaAddress,
        command.receivingUmaAddress,
      ].some(Boolean),
      read: (startDate) =>
        page(caller, {
          quotesOnly: true,
          customerId: command.customerId,
          sourceAccountId: command.sendingAccountId,
          destinationAccountId: command.receivingAccountId,
          sourceUmaAddress: command.sendingUmaAddress,
          destinationUmaAddress: command.receivingUmaAddress,
          statuses: status ? transactionStatusesOf(status as QuoteStatus) : undefined,
          startDate,
          endDate,
          limit: limit || DEFAULT_PAGE_SIZE,
          sortOrder: 'desc',
        }, cursor),
    });
  }

  return { getTransaction, getQuote, listTransactions, listQuotes, windowed, gateOne, gatedByData };
}

export type TransactionQueries = ReturnType<typeof createTransactionQueries>;
