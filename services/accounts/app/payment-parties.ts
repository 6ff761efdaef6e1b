import { unlessAbsent } from '../../../lib/errors';
import { pageQuery } from '../../../lib/page-cursor';
import type { Customer } from '../domain/customer';
import type { ExternalAccount } from '../domain/external-account';
import type { InternalAccount } from '../domain/internal-account';
import type { AccountsStore } from './accounts-store';
import type { Customers } from './customers';
import type { ExternalAccounts } from './external-accounts';
import type { PlatformConfigs, PlatformConfigView } from './platform-configs';

/** How many of a customer's internal accounts `holdingsOf` returns (the first page a payment reads). */
export const HOLDINGS_PAGE = 50;

export interface PaymentPartiesQuery {
  customerIds: string[];
  internalAccountIds: string[];
  externalAccountIds: string[];
  /** Also the customers owning the requested accounts. */
  includeOwners: boolean;
  /** Also the first internal accounts (oldest first) of those of these customers that declare no currencies. */
  holdingsOfCustomerIds: string[];
  includePlatformConfig: boolean;
}

export interface PaymentParties {
  customers: Customer[];
  /** As stored: without the ledger's balances. */
  internalAccounts: InternalAccount[];
  externalAccounts: ExternalAccount[];
  platformConfig?: PlatformConfigView;
}

const unique = (ids: readonly string[]) => [...new Set(ids.filter(Boolean))];
const present = <T>(items: Array<T | undefined | null>): T[] =>
  items.filter((item): item is T => item !== undefined && item !== null);

/**
 * What a payment reads of this service at once: each record exactly as its own use case answers it
 * (customers and external accounts through theirs, internal accounts as stored, since their
 * balances are the ledger's), read concurrently, absent ones left out.
 */
export function createPaymentParties(
  deps: {
    store: AccountsStore;
    customers: Customers;
    externalAccounts: ExternalAccounts;
    platformConfigs: PlatformConfigs;
  },
) {
  const customersById = async (platformId: string, ids: string[]) =>
    present(await Promise.all(unique(ids).map((id) => unlessAbsent(deps.customers.get(platformId, id)))));

  return async function getPaymentParties(platformId: string, query: PaymentPartiesQuery): Promise<PaymentParties> {
    const [internalAccounts, externalAccounts, requested, platformConfig] = await Promise.all([
      Promise.all(unique(query.internalAccountIds).map((id) => deps.store.internalAccounts.find(platformId, id))).then(
        present,
      ),
      Promise.all(unique(query.externalAccountIds).map((id) => unlessAbsent(deps.externalAccounts.get(platformId, id))))
        .then(present),
      customersById(platformId, [...query.customerIds, ...query.holdingsOfCustomerIds]),
      query.includePlatformConfig ? unlessAbsent(deps.platformConfigs.get(platformId)) : undefined,
    ]);
    const fetched = new Set(requested.map((c) => c.id));
    const ownerIds = query.includeOwners
      ? present([...internalAccounts, ...externalAccounts].map((a) => a.customerId))
      : [];
    const owners = await customersById(platformId, ownerIds.filter((id) => !fetched.has(id)));
    const undeclared = new Set(requested.filter((c) => !c.currencies?.length).map((c) => c.id));
    const holders = unique(query.holdingsOfCustomerIds).filter((id) => undeclared.has(id));
    const holdings = await Promise.all(
      holders.map((owner) =>
        deps.store.internalAccounts.list(platformId, { owner }, pageQuery(HOLDINGS_PAGE, undefined))
      ),
    );
    const wanted = new Set([...query.customerIds, ...ownerIds]);
    const accounts = new Map(internalAccounts.map((a) => [a.id, a]));
    for (const account of holdings.flatMap((page) => page.items)) {
      if (!accounts.has(account.id)) accounts.set(account.id, account);
    }
    return {
      customers: [...requested, ...owners].filter((c) => wanted.has(c.id)),
      internalAccounts: [...accounts.values()],
      externalAccounts,
      ...(platformConfig ? { platformConfig } : {}),
    };
  };
}

export type GetPaymentParties = ReturnType<typeof createPaymentParties>;

/** A customer of some platform on this server holding an UMA address, and its holding accounts. */
export interface UmaAddressHolder {
  platformId: string;
  customer: Customer;
  holdingAccounts: InternalAccount[];
}

/** How many customers `findUmaAddressHolders` answers: two already tell an ambiguous address. */
const MAX_UMA_HOLDERS = 10;

/**
 * The customers of every platform on this server whose UMA address this is (deleted ones
 * included, so a payment to one is refused with its reason rather than sent elsewhere), with the
 * accounts an incoming payment can land in (never an embedded wallet).
 */
export function createFindUmaAddressHolders(deps: { store: AccountsStore }) {
  return async function findUmaAddressHolders(umaAddress: string): Promise<UmaAddressHolder[]> {
    if (!umaAddress) return [];
    const customers = await deps.store.customers.findByUmaAddress(umaAddress, MAX_UMA_HOLDERS);
    return Promise.all(customers.map(async (customer) => {
      const accounts = await deps.store.internalAccounts.list(
        customer.platformId,
        { owner: customer.id },
        pageQuery(HOLDINGS_PAGE, undefined),
      );
      return {
        platformId: customer.platformId,
        customer,
        holdingAccounts: accounts.items.filter((a) => a.type !== 'EMBEDDED_WALLET'),
      };
    }));
  };
}

export type FindUmaAddressHolders = ReturnType<typeof createFindUmaAddressHolders>;
