import type { DomainEvent } from '../../../lib/bus/event-bus';
import type { Customer } from '../domain/customer';
import type { ExternalAccount, ExternalAccountStatus } from '../domain/external-account';
import type { InternalAccount } from '../domain/internal-account';

/**
 * The storage the use cases need, owned here and implemented in store/. Every read and write is
 * scoped by platform id; events are written by the same document write as the state they record.
 */
export interface Platform {
  id: string;
  name: string;
  supportedCurrencies: string[];
  umaDomain?: string;
  createdAt: string;
  updatedAt: string;
}

/** Position after which a page starts: records are listed in creation order. */
export interface PagePosition {
  createdAt: string;
  id: string;
}

export interface PageQuery {
  limit: number;
  after?: PagePosition;
}

export interface Page<T> {
  items: T[];
  hasMore: boolean;
  /** Total matching the filter, regardless of the page. */
  totalCount: number;
}

/** A unique rule was violated: the platform customer id, the UMA address, or a duplicate destination. */
export class DuplicateRecordError extends Error {
  constructor(readonly key: 'platformCustomerId' | 'umaAddress' | 'externalAccount' | 'internalAccount') {
    super(`duplicate ${key}`);
    this.name = 'DuplicateRecordError';
  }
}

export interface CustomerFilter {
  platformCustomerId?: string;
  customerType?: string;
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
  updatedBefore?: string;
  region?: string;
  currency?: string;
  umaAddress?: string;
  includeDeleted: boolean;
}

export interface InternalAccountFilter {
  /** A customer's id, or 'PLATFORM' for the platform's own accounts, or 'ANY_CUSTOMER'. */
  owner: string;
  currency?: string;
  type?: string;
}

export interface ExternalAccountFilter {
  owner: string;
  currency?: string;
}

export interface PlatformStore {
  /** Inserts unless a platform with this id exists; answers the stored platform. */
  ensure(platform: Platform): Promise<{ platform: Platform; created: boolean }>;
  find(id: string): Promise<Platform | null>;
}

export interface CustomerStore {
  insert(customer: Customer, events: DomainEvent[]): Promise<void>;
  find(platformId: string, id: string): Promise<Customer | null>;
  list(platformId: string, filter: CustomerFilter, page: PageQuery): Promise<Page<Customer>>;
  /** Writes `next` only if the stored revision is still `next.revision - 1`; false otherwise. */
  replace(next: Customer, events: DomainEvent[]): Promise<boolean>;
}

export interface InternalAccountStore {
  /** Inserts the account unless its owner already has one of this currency and type (then false). */
  insertIfAbsent(account: InternalAccount, events: DomainEvent[]): Promise<boolean>;
  find(platformId: string, id: string): Promise<InternalAccount | null>;
  list(platformId: string, filter: InternalAccountFilter, page: PageQuery): Promise<Page<InternalAccount>>;
}

export interface ExternalAccountStore {
  insert(account: ExternalAccount, events: DomainEvent[]): Promise<void>;
  find(platformId: string, id: string): Promise<ExternalAccount | null>;
  list(platformId: string, filter: ExternalAccountFilter, page: PageQuery): Promise<Page<ExternalAccount>>;
  /** Clears the default UMA deposit flag on the customer's other accounts. */
  clearDefaultUmaDeposit(platformId: string, customerId: string, exceptId: string): Promise<void>;
  /** Deletes the account (kept as a tombstone for its event) if still present; false when it was not. */
  markDeleted(platformId: string, id: string, now: string, events: DomainEvent[]): Promise<boolean>;
  /** Sets `to` only if the status is still `from`; answers the updated account or null. */
  transitionStatus(platformId: string, id: string, from: ExternalAccountStatus, to: ExternalAccountStatus, now: string, events: DomainEvent[]): Promise<ExternalAccount | null>;
}

export interface AccountsStore {
  platforms: PlatformStore;
  customers: CustomerStore;
  internalAccounts: InternalAccountStore;
  externalAccounts: ExternalAccountStore;
}
