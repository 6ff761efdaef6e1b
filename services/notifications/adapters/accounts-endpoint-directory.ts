import { AppError } from '../../../lib/errors';
import type { PeerClients } from '../../../lib/runtime/peer-clients';
import type { WebhookEndpointDirectory } from '../app/webhook-endpoint-directory';

/** Reads `webhookEndpoint` from the platform configuration the accounts service owns (`PATCH /config`). */
export function createAccountsEndpointDirectory(accounts: Pick<PeerClients['accounts'], 'getPlatformConfig'>): WebhookEndpointDirectory {
  return {
    async endpointOf(platformId) {
      try {
        const { config } = await accounts.getPlatformConfig({}, { platformId });
        return config?.webhookEndpoint?.trim() || undefined;
      } catch (err) {
        if (err instanceof AppError && err.code === 'NOT_FOUND') return undefined; // a platform never set up has no endpoint
        throw err;
      }
    },
  };
}
