import { unlessAbsent } from '../../../lib/errors';
import type { PeerClients } from '../../../lib/runtime/peer-clients';
import type { WebhookEndpointDirectory } from '../app/webhook-endpoint-directory';

/** Reads the platform's `webhookEndpoint` (`PATCH /config`) from the accounts service, which owns it. */
export function createAccountsEndpointDirectory(
  accounts: Pick<PeerClients['accounts'], 'getWebhookEndpoint'>,
): WebhookEndpointDirectory {
  return {
    async endpointOf(platformId) {
      // A platform never set up has no endpoint.
      const found = await unlessAbsent(accounts.getWebhookEndpoint({}, { platformId }));
      return found?.url || undefined;
    },
    async extensionTypesOf(platformId) {
      return (await unlessAbsent(accounts.getWebhookEndpoint({}, { platformId })))?.extensionTypes ?? [];
    },
  };
}
