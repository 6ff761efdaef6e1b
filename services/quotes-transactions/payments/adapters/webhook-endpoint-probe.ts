import { unlessAbsent } from '../../../../lib/errors';
import type { PeerClients } from '../../../../lib/runtime/peer-clients';

/**
 * A platform is asked to approve its incoming UMA payments when it has a webhook endpoint to
 * answer with (the accounts service owns `webhookEndpoint`). When that cannot be read, it is asked
 * anyway: no answer then fails the payment (fail closed) rather than crediting it unasked.
 */
export function createWebhookEndpointProbe(
  peers: Pick<PeerClients, 'accounts'>,
): (platformId: string) => Promise<boolean> {
  return async (platformId) => {
    try {
      const found = await unlessAbsent(peers.accounts.getWebhookEndpoint({}, { platformId }));
      return !!found?.url;
    } catch {
      return true;
    }
  };
}
