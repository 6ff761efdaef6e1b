import { AppError } from '../../../lib/errors';
import type { InternalAccount } from '../domain/internal-account';
import type { AccountsStore, Page } from './accounts-store';
import { readAccountFilter } from './list-filters';
import { MAX_PAGE_SIZE, pageQuery } from './page-cursor';

export interface ListInternalAccountsCommand {
  customerId?: string;
  currency?: string;
  type?: string;
  limit: number;
  cursor?: string;
}

export interface InternalAccounts {
  get(platformId: string, id: string): Promise<InternalAccount>;
  /** Customer accounts (all customers, or one), cursor-paginated. */
  listForCustomers(platformId: string, command: ListInternalAccountsCommand): Promise<Page<InternalAccount>>;
  /** The platform's own accounts: one per supported currency, so never more than a page. */
  listForPlatform(platformId: string, command: { currency?: string; type?: string }): Promise<InternalAccount[]>;
}

export function createInternalAccounts(deps: { store: AccountsStore }): InternalAccounts {
  const accounts = deps.store.internalAccounts;
  return {
    async get(platformId, id) {
      const account = await accounts.find(platformId, id);
      if (!account) throw AppError.notFound('Internal account');
      return account;
    },
    async listForCustomers(platformId, command) {
      const filter = readAccountFilter(command);
      const page = pageQuery(command.limit, command.cursor);
      return accounts.list(platformId, { ...filter, owner: filter.customerId ?? 'ANY_CUSTOMER' }, page);
    },
    async listForPlatform(platformId, command) {
      const filter = readAccountFilter({ currency: command.currency, type: command.type });
      const page = await accounts.list(platformId, { ...filter, owner: 'PLATFORM' }, { limit: MAX_PAGE_SIZE });
      return page.items;
    },
  };
}
