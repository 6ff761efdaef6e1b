import type { PeerClients } from '../../../../lib/runtime/peer-clients';
import type { MessageSender } from '../../app/wallet-auth/wallet-auth-ports';

/** OTP messages go out through the notifications service (DeliveryService.SendMessage). */
export function createDeliveryMessageSender(peers: PeerClients): MessageSender {
  return {
    async send(message) {
      await peers.delivery.sendMessage(message);
    },
  };
}
