import { externalAccountJson, internalAccountJson } from '../../../lib/contract/account-json';
import { unlessAbsent } from '../../../lib/errors';
import type { PeerClients } from '../../../lib/runtime/peer-clients';
import type { WebhookResources } from '../app/webhook-payloads';

/** Reads accounts from the accounts service and renders them with the REST renderers (lib/contract). */
export function createAccountsWebhookResources(accounts: () => Pick<PeerClients['accounts'], 'getInternalAccount' | 'getExternalAccount'>): WebhookResources {
  return {
    async internalAccount(platformId, id) {
      const found = await unlessAbsent(accounts().getInternalAccount({ id }, { platformId }));
      return found?.account && internalAccountJson(found.account);
    },
    async externalAccount(platformId, id) {
      const found = await unlessAbsent(accounts().getExternalAccount({ id }, { platformId }));
      return found?.account && externalAccountJson(found.account);
    },
  };
}
