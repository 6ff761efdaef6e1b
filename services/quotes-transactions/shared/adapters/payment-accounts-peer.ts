import type { Customer, ExternalAccount, InternalAccount } from '../../../../gen/accounts/v1/accounts';
import { unlessAbsent } from '../../../../lib/errors';
import type { PeerClients } from '../../../../lib/runtime/peer-clients';
import type { CustomerInfo, ExternalAccountInfo, InternalAccountInfo, PaymentAccounts } from '../app/payment-accounts';
import { paymentSettingsOf } from './platform-config-settings';

function internalInfo(a: InternalAccount | undefined): InternalAccountInfo | null {
  if (!a) return null;
  return {
    id: a.id,
    ...(a.customerId ? { customerId: a.customerId } : {}),
    type: a.type,
    status: a.status,
    currency: a.balance?.currency?.code ?? '',
  };
}

function externalInfo(account: ExternalAccount): ExternalAccountInfo {
  return {
    id: account.id,
    ...(account.customerId ? { customerId: account.customerId } : {}),
    status: account.status,
    currency: account.currency,
    accountType: account.accountInfo?.accountType ?? '',
    paymentRails: account.accountInfo?.paymentRails ?? [],
  };
}

/** null when deleted, as for an absent customer. */
function customerInfo(customer: Customer | undefined): CustomerInfo | null {
  if (!customer || customer.isDeleted) return null;
  return {
    id: customer.id,
    platformCustomerId: customer.platformCustomerId,
    umaAddress: customer.umaAddress,
    acceptsCurrentTerms: customer.acceptsCurrentTerms,
    kycBlocksPayments: customer.kycBlocksPayments,
  };
}

/** The accounts service over gRPC; `peers.accounts` is read per call since peer clients connect lazily. */
export function createPaymentAccountsPeer(peers: Pick<PeerClients, 'accounts'>): PaymentAccounts {
  return {
    async parties(caller, query) {
      const found = await peers.accounts.getPaymentParties({
        customerIds: query.customerIds,
        internalAccountIds: query.internalAccountIds,
        externalAccountIds: query.externalAccountIds,
        includeOwners: true,
        holdingsOfCustomerIds: [],
        includePlatformConfig: query.withSettings,
      }, caller);
      const customers = new Map<string, CustomerInfo>();
      for (const c of found.customers) {
        const info = customerInfo(c);
        if (info) customers.set(info.id, info);
      }
      return {
        internalAccounts: new Map(found.internalAccounts.map((a) => [a.id, {
          id: a.id,
          ...(a.customerId ? { customerId: a.customerId } : {}),
          type: a.type,
          status: a.status,
          currency: a.currency,
        }])),
        externalAccounts: new Map(found.externalAccounts.map((a) => [a.id, externalInfo(a)])),
        customers,
        ...(query.withSettings ? { settings: paymentSettingsOf(found.platformConfig) } : {}),
      };
    },
    async internalAccount(caller, id) {
      return internalInfo((await unlessAbsent(peers.accounts.getInternalAccount({ id }, caller)))?.account);
    },
    async externalAccount(caller, id) {
      const account = (await unlessAbsent(peers.accounts.getExternalAccount({ id }, caller)))?.account;
      return account ? externalInfo(account) : null;
    },
    async customer(caller, id) {
      return customerInfo((await unlessAbsent(peers.accounts.getCustomer({ id }, caller)))?.customer);
    },
    async customerByUmaAddress(caller, umaAddress) {
      const { customers } = await peers.accounts.listCustomers({ umaAddress, limit: 1, includeDeleted: false }, caller);
      const customer = customers[0];
      return customer
        ? {
          id: customer.id,
          platformCustomerId: customer.platformCustomerId,
          umaAddress: customer.umaAddress,
          acceptsCurrentTerms: customer.acceptsCurrentTerms,
          kycBlocksPayments: customer.kycBlocksPayments,
        }
        : null;
    },
    async customerAccount(caller, customerId, currency) {
      // A customer with an embedded wallet in the same currency holds two accounts in it: listing
      // order alone would pick either, so the holding account is chosen by its type.
      const { accounts } = await peers.accounts.listInternalAccounts({ customerId, currency, limit: 100 }, caller);
      return internalInfo(accounts.find((a) => a.type !== 'EMBEDDED_WALLET'));
    },
    async platformAccount(caller, currency) {
      const { accounts } = await peers.accounts.listPlatformInternalAccounts({ currency }, caller);
      return internalInfo(accounts[0]);
    },
  };
}
