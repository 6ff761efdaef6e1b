import type { DomainEvent } from '../../../lib/bus/event-bus';
import type { PageQuery } from '../../../lib/page-cursor';
import type { ContactChannel, ContactChannelStatus } from '../domain/contact-verification';
import type { Customer, PendingEmailChange } from '../domain/customer';
import type { ExternalAccount } from '../domain/external-account';
import type { InternalAccount } from '../domain/internal-account';
import type { PlatformSettings } from '../domain/platform-config';
import type { ProvisioningStep } from '../domain/provisioning-plan';
import type { ExternalAccountStore } from './external-account-store';
import type {
  BeneficialOwnerStore,
  CustomerStatusWriter,
  DocumentRecordStore,
  KycLinkStore,
  VerificationStore,
} from './verification-store';

/**
 * The storage the use cases need, owned here and implemented in store/. Every read and write is
 * scoped by platform id; events are written by the same document write as the state they record.
 */
export interface Platform {
  id: string;
  name: string;
  /** The codes of `settings.currencyConfigs`, kept in the same write. */
  supportedCurrencies: string[];
  umaDomain?: string;
  /** Absent on platforms stored before configuration existed (defaults apply). */
  settings?: PlatformSettings;
  /** Incremented by every configuration change; changes are conditional on it. */
  configRevision?: number;
  /** Platform internal accounts still to open. */
  provisioning?: ProvisioningStep[];
  createdAt: string;
  updatedAt: string;
}

/** Records are listed in creation order; a page starts after a position (see lib/page-cursor). */
export type { PageQuery };

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
  /** Only these accounts (an agent's allowed accounts); absent: every account. */
  ids?: string[];
}

export interface ExternalAccountFilter {
  owner: string;
  currency?: string;
}

/**
 * Records whose marker still lists work planned at or before `plannedBefore`, in id order after
 * `afterId` (so a sweep pages through all of them even when some stay pending).
 */
export interface PendingProvisioningQuery {
  plannedBefore: string;
  limit: number;
  afterId?: string;
}

export interface PlatformStore {
  /** Inserts unless a platform with this id exists; answers the stored platform. */
  ensure(platform: Platform): Promise<{ platform: Platform; created: boolean }>;
  find(id: string): Promise<Platform | null>;
  /** Writes the configuration of `next` only if its revision is still `next.configRevision - 1`. */
  replaceConfig(next: Platform, events: DomainEvent[], steps: ProvisioningStep[]): Promise<boolean>;
  /** Removes these accounts from the platform's marker. */
  completeProvisioning(platformId: string, accountIds: string[]): Promise<void>;
  findPendingProvisioning(query: PendingProvisioningQuery): Promise<Platform[]>;
}

/** One contact channel's new status for a customer. */
export interface ContactStatusChange {
  platformId: string;
  customerId: string;
  channel: ContactChannel;
  status: ContactChannelStatus;
  now: string;
}

/** A claim on a customer's email change, valid while the customer is still at `revision`. */
export interface EmailChangeClaim {
  platformId: string;
  customerId: string;
  revision: number;
  change: PendingEmailChange;
  /** A change started before this instant counts as abandoned. */
  staleBefore: string;
}

export interface CustomerStore extends CustomerStatusWriter {
  /** Sets one contact channel's status, where the customer's contact verification has that channel. */
  setContactStatus(change: ContactStatusChange): Promise<void>;
  /** Replaces the phone number with one already proven (a 2FA reset), marking it VERIFIED where tracked. */
  setVerifiedPhone(platformId: string, customerId: string, phoneNumber: string, now: string): Promise<void>;
  insert(customer: Customer, events: DomainEvent[]): Promise<void>;
  find(platformId: string, id: string): Promise<Customer | null>;
  list(platformId: string, filter: CustomerFilter, page: PageQuery): Promise<Page<Customer>>;
  /** Every platform's customers holding this UMA address, deleted ones included (at most `limit`). */
  findByUmaAddress(umaAddress: string, limit: number): Promise<Customer[]>;
  /**
   * Writes `next` only if the stored revision is still `next.revision - 1`, adding `steps` to its
   * provisioning marker in the same write; false otherwise.
   */
  replace(next: Customer, events: DomainEvent[], steps?: ProvisioningStep[]): Promise<boolean>;
  /** Removes these accounts from the customer's marker. */
  completeProvisioning(platformId: string, customerId: string, accountIds: string[]): Promise<void>;
  findPendingProvisioning(query: PendingProvisioningQuery): Promise<Customer[]>;
  /**
   * Sets `emailChange` if the customer is still at `revision` and no other change started at or
   * after `staleBefore` is under way; false otherwise.
   */
  claimEmailChange(claim: EmailChangeClaim): Promise<boolean>;
  /** Customers whose `emailChange` started before `plannedBefore`, in id order after `afterId`. */
  findEmailChangesStartedBefore(query: PendingProvisioningQuery): Promise<Customer[]>;
  /** Clears `emailChange` if it is still this request's. */
  releaseEmailChange(platformId: string, customerId: string, requestId: string): Promise<void>;
}

export interface InternalAccountStore {
  /** Inserts the account unless it exists or its owner has one of this currency and type (then false). */
  insertIfAbsent(account: InternalAccount, events: DomainEvent[]): Promise<boolean>;
  find(platformId: string, id: string): Promise<InternalAccount | null>;
  list(platformId: string, filter: InternalAccountFilter, page: PageQuery): Promise<Page<InternalAccount>>;
  /** Sets walletProvisioned and ACTIVE only if still unprovisioned; false when it already was. */
  markWalletProvisioned(platformId: string, id: string, now: string, events: DomainEvent[]): Promise<boolean>;
}

export type { ExternalAccountStore };

export interface AccountsStore {
  platforms: PlatformStore;
  customers: CustomerStore;
  internalAccounts: InternalAccountStore;
  externalAccounts: ExternalAccountStore;
  verifications: VerificationStore;
  kycLinks: KycLinkStore;
  beneficialOwners: BeneficialOwnerStore;
  documents: DocumentRecordStore;
}
