import { AppError, type ErrorCode } from '../../../lib/errors';
import type { PeerClients } from '../../../lib/runtime/peer-clients';
import type { AccountsDirectory } from '../app/accounts-directory';

const ABSENT: readonly ErrorCode[] = ['NOT_FOUND', 'USER_NOT_FOUND'];

async function orNull<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof AppError && ABSENT.includes(err.code)) return null;
    throw err;
  }
}

/** The accounts service over gRPC; `peers.accounts` is read per call since peer clients connect lazily. */
export function createAccountsPeerDirectory(peers: Pick<PeerClients, 'accounts'>): AccountsDirectory {
  return {
    async externalAccount(caller, accountId) {
      const found = await orNull(peers.accounts.getExternalAccount({ id: accountId }, caller));
      const account = found?.account;
      if (!account) return null;
      return { id: account.id, currency: account.currency, accountInfo: account.accountInfo ?? {} };
    },
    async senderCurrency(caller, customerId) {
      const found = await orNull(peers.accounts.getCustomer({ id: customerId }, caller));
      if (!found?.customer || found.customer.isDeleted) return null;
      if (found.customer.currencies.length > 0) return found.customer.currencies[0];
      const listed = await peers.accounts.listInternalAccounts({ customerId, limit: 50 }, caller);
      const held = listed.accounts.map((a) => a.balance?.currency?.code).filter((code): code is string => !!code);
      return held.includes('USD') ? 'USD' : held[0];
    },
  };
}
