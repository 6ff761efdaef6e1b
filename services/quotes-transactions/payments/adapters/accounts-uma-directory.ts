import type { PeerClients } from '../../../../lib/runtime/peer-clients';
import type { UmaAddressDirectory } from '../app/same-server-payments';

/** The accounts service's FindUmaAddressHolders (platform-less); `peers.accounts` is read per call. */
export function createAccountsUmaDirectory(peers: Pick<PeerClients, 'accounts'>): UmaAddressDirectory {
  return {
    async holders(umaAddress) {
      const { holders } = await peers.accounts.findUmaAddressHolders({ umaAddress });
      return holders.filter((h) => h.customer).map((h) => ({
        platformId: h.platformId,
        customerId: h.customer!.id,
        platformCustomerId: h.customer!.platformCustomerId,
        isDeleted: h.customer!.isDeleted,
        kycBlocked: h.customer!.kycBlocksPayments,
        accounts: h.holdingAccounts.map((a) => ({ id: a.id, currency: a.currency, status: a.status })),
      }));
    },
  };
}
