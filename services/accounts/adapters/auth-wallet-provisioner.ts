import type { PeerClients } from '../../../lib/runtime/peer-clients';
import type { WalletProvisioner } from '../app/service-ports';

/** Embedded wallets are set up by the auth service's ProvisionWallet (idempotent). */
export function createAuthWalletProvisioner(peers: PeerClients): WalletProvisioner {
  return {
    async provision(command) {
      await peers.walletAuth.provisionWallet({
        accountId: command.accountId,
        platformId: command.platformId,
        customerEmail: command.customerEmail ?? '',
        ...(command.customerPhone ? { customerPhone: command.customerPhone } : {}),
      }, { platformId: command.platformId });
    },
  };
}
