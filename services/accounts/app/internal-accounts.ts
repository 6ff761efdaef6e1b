import { AppError } from '../../../lib/errors';
import { MAX_PAGE_SIZE, pageQuery } from '../../../lib/page-cursor';
import type { InternalAccount } from '../domain/internal-account';
import type { AccountsStore, Page } from './accounts-store';
import { readAccountFilter } from './list-filters';
import type { BalanceSource, WalletCredentials } from './service-ports';

export interface ListInternalAccountsCommand {
  customerId?: string;
  currency?: string;
  type?: string;
  limit: number;
  cursor?: string;
  /** Only these accounts (an agent's allowedAccountIds); absent: every account. */
  onlyAccountIds?: { ids: string[] };
}

export interface InternalAccounts {
  get(platformId: string, id: string): Promise<InternalAccount>;
  /** Customer accounts (all customers, or one), cursor-paginated. */
  listForCustomers(platformId: string, command: ListInternalAccountsCommand): Promise<Page<InternalAccount>>;
  /** The platform's own accounts: one per supported currency, so never more than a page. */
  listForPlatform(platformId: string, command: { currency?: string; type?: string }): Promise<InternalAccount[]>;
}

/**
 * Accounts as stored, with the balances of their owner, the ledger (one call per page), and the
 * privacy of embedded wallets from the auth service.
 */
export function createInternalAccounts(deps: {
  store: AccountsStore;
  balances: BalanceSource;
  wallets: Pick<WalletCredentials, 'privacyOf'>;
}): InternalAccounts {
  const accounts = deps.store.internalAccounts;
  const withPrivacy = async (platformId: string, items: InternalAccount[]): Promise<InternalAccount[]> => {
    const provisioned = items.filter((a) => a.type === 'EMBEDDED_WALLET' && a.walletProvisioned).map((a) => a.id);
    const privacy = provisioned.length
      ? await deps.wallets.privacyOf(platformId, provisioned)
      : new Map<string, boolean>();
    // A wallet not provisioned yet starts with privacy off.
    return items.map((a) => (a.type === 'EMBEDDED_WALLET' ? { ...a, privateEnabled: privacy.get(a.id) ?? false } : a));
  };
  const withBalancesAndPrivacy = async (platformId: string, items: InternalAccount[]): Promise<InternalAccount[]> => {
    if (!items.length) return items;
    const [balances, withWalletPrivacy] = await Promise.all([
      deps.balances.balancesOf(platformId, items.map((a) => a.id)),
      withPrivacy(platformId, items),
    ]);
    return withWalletPrivacy.map((a) => {
      const balance = balances.get(a.id);
      return balance ? { ...a, availableBalance: balance.available, totalBalance: balance.total } : a;
    });
  };
  return {
    async get(platformId, id) {
      const account = await accounts.find(platformId, id);
      if (!account) throw AppError.notFound('Internal account');
      return (await withBalancesAndPrivacy(platformId, [account]))[0];
    },
    async listForCustomers(platformId, command) {
      const filter = readAccountFilter(command);
      const only = command.onlyAccountIds ? { ids: command.onlyAccountIds.ids } : {};
      const page = await accounts.list(
        platformId,
        { ...filter, ...only, owner: filter.customerId ?? 'ANY_CUSTOMER' },
        pageQuery(command.limit, command.cursor),
      );
      return { ...page, items: await withBalancesAndPrivacy(platformId, page.items) };
    },
    async listForPlatform(platformId, command) {
      const filter = readAccountFilter({ currency: command.currency, type: command.type });
      const page = await accounts.list(platformId, { ...filter, owner: 'PLATFORM' }, { limit: MAX_PAGE_SIZE });
      return withBalancesAndPrivacy(platformId, page.items);
    },
  };
}
