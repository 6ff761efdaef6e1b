import { AppError } from '../../../../lib/errors';
import type { PaymentSettings } from './payment-settings';

/** The platform on whose behalf a use case runs, forwarded on every call it makes. */
export interface Caller {
  platformId: string;
  correlationId?: string;
}

export interface InternalAccountInfo {
  id: string;
  customerId?: string;
  /** INTERNAL_FIAT, INTERNAL_CRYPTO or EMBEDDED_WALLET. */
  type: string;
  status: string;
  currency: string;
}

export interface ExternalAccountInfo {
  id: string;
  customerId?: string;
  status: string;
  currency: string;
  /** accountInfo.accountType, e.g. MXN_ACCOUNT or SOLANA_WALLET. */
  accountType: string;
  paymentRails: string[];
}

export interface CustomerInfo {
  id: string;
  platformCustomerId: string;
  umaAddress: string;
  /** Whether the customer's consent is to the current End User Terms (quotes require it). */
  acceptsCurrentTerms: boolean;
  /** The customer's KYC/KYB status stops it from sending money (the accounts service's policy). */
  kycBlocksPayments?: boolean;
}

/** Records a quote reads together: the accounts and customers named, and the owners of those accounts. */
export interface PartiesQuery {
  internalAccountIds: string[];
  externalAccountIds: string[];
  customerIds: string[];
  /** Also the platform's payment settings (PaymentSettingsSource), from the same read. */
  withSettings: boolean;
}

/** What a PartiesQuery found: absent (or deleted, for customers) records are not in the maps. */
export interface PartiesSnapshot {
  internalAccounts: ReadonlyMap<string, InternalAccountInfo>;
  externalAccounts: ReadonlyMap<string, ExternalAccountInfo>;
  customers: ReadonlyMap<string, CustomerInfo>;
  settings?: PaymentSettings;
}

/**
 * What payments read from the accounts service, scoped to the caller's platform: another
 * platform's record answers null exactly like a missing one.
 */
export interface PaymentAccounts {
  /** Several records in one read, each as the single-record method would answer it. */
  parties(caller: Caller, query: PartiesQuery): Promise<PartiesSnapshot>;
  internalAccount(caller: Caller, id: string): Promise<InternalAccountInfo | null>;
  externalAccount(caller: Caller, id: string): Promise<ExternalAccountInfo | null>;
  /** null when absent or deleted. */
  customer(caller: Caller, id: string): Promise<CustomerInfo | null>;
  customerByUmaAddress(caller: Caller, umaAddress: string): Promise<CustomerInfo | null>;
  /**
   * The customer's holding account in `currency` (INTERNAL_FIAT or INTERNAL_CRYPTO; never its embedded wallet), where
   * incoming payments land.
   */
  customerAccount(caller: Caller, customerId: string, currency: string): Promise<InternalAccountInfo | null>;
  /** The platform's own internal account in `currency` (where platform fees settle). */
  platformAccount(caller: Caller, currency: string): Promise<InternalAccountInfo | null>;
}

/** The account's customer was deleted (410 CUSTOMER_DELETED): its accounts move no money any more. */
export function customerDeleted(accountId: string): AppError {
  return new AppError(
    'CUSTOMER_DELETED',
    `The customer owning ${accountId} has been deleted; its accounts move no money any more`,
  );
}
