import type { PeerClients } from '../../../../lib/runtime/peer-clients';
import type { Cardholders, FundingAccount } from '../app/card-ports';

/** The cardholder's KYC status and the accounts named, from the accounts service in one call. */
export function createCardholdersPeer(peers: Pick<PeerClients, 'accounts'>): Cardholders {
  return {
    async read(caller, customerId, accountIds) {
      const found = await peers.accounts.getPaymentParties({
        customerIds: [customerId],
        internalAccountIds: accountIds,
        externalAccountIds: [],
        includeOwners: false,
        holdingsOfCustomerIds: [],
        includePlatformConfig: false,
      }, caller);
      const customer = found.customers.find((c) => c.id === customerId && !c.isDeleted);
      const accounts = new Map<string, FundingAccount>(found.internalAccounts.map((a) => [a.id, {
        id: a.id,
        ...(a.customerId ? { customerId: a.customerId } : {}),
        currency: a.currency,
        type: a.type,
        status: a.status,
      }]));
      return {
        kycStatus: customer ? (customer.kycStatus ?? 'UNVERIFIED') : null,
        ...(customer ? { platformCustomerId: customer.platformCustomerId } : {}),
        accounts,
      };
    },
  };
}
