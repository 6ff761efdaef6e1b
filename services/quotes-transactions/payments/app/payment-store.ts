import type { DomainEvent } from '../../../../lib/bus/event-bus';
import type { Payment } from '../domain/payment';

export interface TransactionQuery {
  customerId?: string;
  platformCustomerId?: string;
  accountIdentifier?: string;
  senderAccountIdentifier?: string;
  receiverAccountIdentifier?: string;
  status?: string;
  type?: string;
  reference?: string;
  /** Any of these statuses (a Quote status covers several transaction statuses). */
  statuses?: string[];
  /** Only payments made from a quote. */
  quotesOnly?: boolean;
  sourceAccountId?: string;
  destinationAccountId?: string;
  sourceUmaAddress?: string;
  destinationUmaAddress?: string;
  /** Only payments from or to one of these accounts (an agent's allowed accounts). */
  touchingAccountIds?: string[];
  startDate?: string;
  endDate?: string;
  limit: number;
  after?: { createdAt: string; id: string };
  sortOrder: 'asc' | 'desc';
}

export interface PaymentPage {
  payments: Payment[];
  hasMore: boolean;
  totalCount: number;
}

/** Raised by `insert` when the platform already used the idempotency key. */
export class IdempotencyKeyTaken extends Error {
  constructor(readonly key: string) {
    super(`idempotency key ${key} already used`);
    this.name = 'IdempotencyKeyTaken';
  }
}

/**
 * Storage port of payments (a quote and its transaction share one document). Every change is
 * conditional on the version read, and carries its events into the same write (outbox).
 */
export interface PaymentStore {
  insert(payment: Payment, events: DomainEvent[]): Promise<void>;
  get(platformId: string, id: string): Promise<Payment | null>;
  getByQuote(platformId: string, quoteId: string): Promise<Payment | null>;
  getByIdempotencyKey(platformId: string, key: string): Promise<Payment | null>;
  /** Writes `next` if the stored payment is still at `current.version`; false when it moved on. */
  update(current: Payment, next: Payment, events: DomainEvent[]): Promise<boolean>;
  list(platformId: string, query: TransactionQuery): Promise<PaymentPage>;
  /** Payments whose next action is due, or whose ledger step was left unfinished since `staleBefore`. */
  due(now: string, staleBefore: string, limit: number): Promise<Payment[]>;
}
