import type { ExternalAccountData } from '../domain/receiving-destination';

/** The platform on whose behalf a use case runs, forwarded on every call it makes. */
export interface Caller {
  platformId: string;
  correlationId?: string;
}

/**
 * What the lookup reads from the accounts service. Every answer is scoped to the caller's
 * platform: another platform's record is reported exactly like a missing one.
 */
export interface AccountsDirectory {
  /** null when the account does not exist for this platform. */
  externalAccount(caller: Caller, accountId: string): Promise<ExternalAccountData | null>;
  /** false when the customer does not exist for this platform (or was deleted). */
  customerExists(caller: Caller, customerId: string): Promise<boolean>;
  /** Currency of the customer's primary (first) internal account; undefined when it has none. */
  primaryAccountCurrency(caller: Caller, customerId: string): Promise<string | undefined>;
}
