import { unlessAbsent } from '../../../lib/errors';
import type { PeerClients } from '../../../lib/runtime/peer-clients';
import type { WebhookEndpointDirectory } from '../app/webhook-endpoint-directory';

/** Reads `webhookEndpoint` from the platform configuration the accounts service owns (`PATCH /config`). */
export function createAccountsEndpointDirectory(accounts: Pick<PeerClients['accounts'], 'getPlatformConfig'>): WebhookEndpointDirectory {
  return {
    async endpointOf(platformId) {
      // A platform never set up has no endpoint.
      const found = await unlessAbsent(accounts.getPlatformConfig({}, { platformId }));
      return found?.config?.webhookEndpoint?.trim() || undefined;
    },
  };
}
