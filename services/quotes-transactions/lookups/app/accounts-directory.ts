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
  /**
   * The currency the customer sends in: the first of its declared currencies, else USD when it
   * holds a USD internal account, else its first internal account's; undefined when it holds none;
   * null when the customer does not exist for this platform (or was deleted).
   */
  senderCurrency(caller: Caller, customerId: string): Promise<string | undefined | null>;
  /**
   * What a lookup of an external account reads, in one call: the account (null when it does not
   * exist for this platform) and, when a customer sends, that customer's currency as
   * senderCurrency answers it (`sender` null when the customer does not exist or was deleted).
   */
  lookupParties(caller: Caller, query: { customerId?: string; accountId: string }): Promise<{
    account: ExternalAccountData | null;
    sender?: { currency: string | undefined } | null;
  }>;
}
