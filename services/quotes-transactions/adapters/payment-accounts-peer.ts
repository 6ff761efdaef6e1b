import type { InternalAccount } from '../../../gen/accounts/v1/accounts';
import { AppError, type ErrorCode } from '../../../lib/errors';
import type { PeerClients } from '../../../lib/runtime/peer-clients';
import type { InternalAccountInfo, PaymentAccounts } from '../app/payment-accounts';

const ABSENT: readonly ErrorCode[] = ['NOT_FOUND', 'USER_NOT_FOUND'];

async function orNull<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof AppError && ABSENT.includes(err.code)) return null;
    throw err;
  }
}

function internalInfo(a: InternalAccount | undefined): InternalAccountInfo | null {
  if (!a) return null;
  return { id: a.id, ...(a.customerId ? { customerId: a.customerId } : {}), type: a.type, status: a.status, currency: a.balance?.currency?.code ?? '' };
}

/** The accounts service over gRPC; `peers.accounts` is read per call since peer clients connect lazily. */
export function createPaymentAccountsPeer(peers: Pick<PeerClients, 'accounts'>): PaymentAccounts {
  return {
    async internalAccount(caller, id) {
      return internalInfo((await orNull(peers.accounts.getInternalAccount({ id }, caller)))?.account);
    },
    async externalAccount(caller, id) {
      const account = (await orNull(peers.accounts.getExternalAccount({ id }, caller)))?.account;
      if (!account) return null;
      const info = account.accountInfo ?? {};
      return {
        id: account.id, ...(account.customerId ? { customerId: account.customerId } : {}), status: account.status, currency: account.currency,
        accountType: String(info.accountType ?? ''), paymentRails: Array.isArray(info.paymentRails) ? info.paymentRails.map(String) : [],
      };
    },
    async customer(caller, id) {
      const customer = (await orNull(peers.accounts.getCustomer({ id }, caller)))?.customer;
      if (!customer || customer.isDeleted) return null;
      return { id: customer.id, platformCustomerId: customer.platformCustomerId, umaAddress: customer.umaAddress, acceptsCurrentTerms: customer.acceptsCurrentTerms };
    },
    async customerByUmaAddress(caller, umaAddress) {
      const { customers } = await peers.accounts.listCustomers({ umaAddress, limit: 1, includeDeleted: false }, caller);
      const customer = customers[0];
      return customer ? { id: customer.id, platformCustomerId: customer.platformCustomerId, umaAddress: customer.umaAddress, acceptsCurrentTerms: customer.acceptsCurrentTerms } : null;
    },
    async customerAccount(caller, customerId, currency) {
      const { accounts } = await peers.accounts.listInternalAccounts({ customerId, currency, limit: 1 }, caller);
      return internalInfo(accounts[0]);
    },
    async platformAccount(caller, currency) {
      const { accounts } = await peers.accounts.listPlatformInternalAccounts({ currency }, caller);
      return internalInfo(accounts[0]);
    },
  };
}
