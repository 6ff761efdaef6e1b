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
    async customerExists(caller, customerId) {
      const found = await orNull(peers.accounts.getCustomer({ id: customerId }, caller));
      return !!found?.customer && !found.customer.isDeleted;
    },
    async primaryAccountCurrency(caller, customerId) {
      const listed = await peers.accounts.listInternalAccounts({ customerId, limit: 1 }, caller);
      return listed.accounts[0]?.balance?.currency?.code || undefined;
    },
  };
}
