import type { GetPaymentPartiesResponse } from '../../../../gen/accounts/v1/accounts';
import { unlessAbsent } from '../../../../lib/errors';
import type { PeerClients } from '../../../../lib/runtime/peer-clients';
import type { AccountsDirectory } from '../app/accounts-directory';

/**
 * The first of the customer's declared currencies, else USD when it holds a USD internal account,
 * else its first internal account's; null when the customer is absent or deleted.
 */
function senderOf(customerId: string, found: GetPaymentPartiesResponse): { currency: string | undefined } | null {
  const customer = found.customers.find((c) => c.id === customerId);
  if (!customer || customer.isDeleted) return null;
  if (customer.currencies.length > 0) return { currency: customer.currencies[0] };
  const held = found.internalAccounts.filter((a) => a.customerId === customerId).map((a) => a.currency).filter((code) =>
    !!code
  );
  return { currency: held.includes('USD') ? 'USD' : held[0] };
}

/** The accounts service over gRPC; `peers.accounts` is read per call since peer clients connect lazily. */
export function createAccountsPeerDirectory(peers: Pick<PeerClients, 'accounts'>): AccountsDirectory {
  const parties = (
    caller: Parameters<AccountsDirectory['senderCurrency']>[0],
    customerId: string | undefined,
    accountId: string | undefined,
  ) =>
    peers.accounts.getPaymentParties({
      customerIds: customerId ? [customerId] : [],
      holdingsOfCustomerIds: customerId ? [customerId] : [],
      internalAccountIds: [],
      externalAccountIds: accountId ? [accountId] : [],
      includeOwners: false,
      includePlatformConfig: false,
    }, caller);
  return {
    async lookupParties(caller, { customerId, accountId }) {
      const found = await parties(caller, customerId, accountId);
      const account = found.externalAccounts.find((a) => a.id === accountId);
      return {
        account: account
          ? { id: account.id, currency: account.currency, accountInfo: account.accountInfo ?? {} }
          : null,
        ...(customerId ? { sender: senderOf(customerId, found) } : {}),
      };
    },
    async externalAccount(caller, accountId) {
      const found = await unlessAbsent(peers.accounts.getExternalAccount({ id: accountId }, caller));
      const account = found?.account;
      if (!account) return null;
      return { id: account.id, currency: account.currency, accountInfo: account.accountInfo ?? {} };
    },
    async senderCurrency(caller, customerId) {
      const sender = senderOf(customerId, await parties(caller, customerId, undefined));
      return sender === null ? null : sender.currency;
    },
  };
}
