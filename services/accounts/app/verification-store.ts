import type { DomainEvent } from '../../../lib/bus/event-bus';
import type { BeneficialOwner } from '../domain/beneficial-owner';
import type { StoredDocument } from '../domain/document';
import type { CustomerVerificationStatus, Verification } from '../domain/verification';
import type { Page, PageQuery } from './accounts-store';

export interface VerificationFilter {
  customerId?: string;
  status?: string;
}

/** Verifications: one per customer, moved on by conditional writes (revision). */
export interface VerificationStore {
  /** False when the customer already has one (a concurrent submission won). */
  insert(v: Verification, events: DomainEvent[]): Promise<boolean>;
  find(platformId: string, id: string): Promise<Verification | null>;
  findForCustomer(platformId: string, customerId: string): Promise<Verification | null>;
  /** Writes `next` only if the stored revision is still `next.revision - 1`. */
  replace(next: Verification, events: DomainEvent[]): Promise<boolean>;
  list(platformId: string, filter: VerificationFilter, page: PageQuery): Promise<Page<Verification>>;
  /** Verifications whose next provider step is due at `now`. */
  findStepsDue(now: string, limit: number): Promise<Verification[]>;
  /** Verifications whose customer status has still to follow them. */
  findCustomerStatusDue(limit: number): Promise<Verification[]>;
  /** Clears `customerStatusDue` if the verification is still at `revision`. */
  markCustomerStatusApplied(id: string, revision: number): Promise<void>;
}

/** Sets the customer's KYC/KYB status (with its events) unless it already is `status`; true when it changed. */
export interface CustomerStatusWriter {
  setVerificationStatus(change: CustomerStatusChange): Promise<boolean>;
}

/** A customer's new KYC/KYB status with the events recorded in the same write. */
export interface CustomerStatusChange {
  platformId: string;
  customerId: string;
  status: CustomerVerificationStatus;
  now: string;
  events: DomainEvent[];
}

export interface KycLinkRecord {
  /** SHA-256 of the link token: the token itself is never stored. */
  tokenHash: string;
  platformId: string;
  customerId: string;
  customerType: string;
  redirectUri?: string;
  expiresAt: string;
  usedAt?: string;
  createdAt: string;
}

export interface KycLinkStore {
  insert(link: KycLinkRecord): Promise<void>;
  find(tokenHash: string): Promise<KycLinkRecord | null>;
  /** Marks the link used if it is unused and unexpired at `now`; the link, or null when it was not. */
  claim(tokenHash: string, now: string): Promise<KycLinkRecord | null>;
  /** Forgets links that expired before `before` (used or not). */
  forgetExpired(before: string): Promise<number>;
}

/** The KYC status a business's verification gives its owners at `now`, and the owners screened apart (`own`). */
export interface OwnersKycStatus {
  platformId: string;
  customerId: string;
  status: CustomerVerificationStatus;
  now: string;
  own: Record<string, CustomerVerificationStatus>;
}

/** Beneficial owners of business customers. */
export interface BeneficialOwnerStore {
  insert(owner: BeneficialOwner): Promise<void>;
  find(platformId: string, id: string): Promise<BeneficialOwner | null>;
  list(platformId: string, customerId: string | undefined, page: PageQuery): Promise<Page<BeneficialOwner>>;
  /** Every owner of one customer (verification reads them all). */
  ofCustomer(platformId: string, customerId: string): Promise<BeneficialOwner[]>;
  /** Writes `next` only if the stored revision is still `next.revision - 1`. */
  replace(next: BeneficialOwner): Promise<boolean>;
  /** Every owner of the customer takes the status its business's verification implies, except those in `own`. */
  setKycStatus(change: OwnersKycStatus): Promise<void>;
}

/** Document records (their files are in DocumentStorage). */
export interface DocumentRecordStore {
  insert(doc: StoredDocument): Promise<void>;
  find(platformId: string, id: string): Promise<StoredDocument | null>;
  list(platformId: string, holder: string | undefined, page: PageQuery): Promise<Page<StoredDocument>>;
  ofHolders(platformId: string, holderIds: string[]): Promise<StoredDocument[]>;
  /** Writes `next` only if the stored revision is still `next.revision - 1`. */
  replace(next: StoredDocument): Promise<boolean>;
  /** Removes the record if it is still at `revision`. */
  remove(platformId: string, id: string, revision: number): Promise<boolean>;
}
