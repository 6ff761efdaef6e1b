import { externalAccountJson, internalAccountJson } from '../../../lib/contract/account-json';
import { customerJson } from '../../../lib/contract/customer-json';
import { ownersOf, type ListOwners } from '../../../lib/contract/customer-owners';
import { unlessAbsent } from '../../../lib/errors';
import type { PeerClients } from '../../../lib/runtime/peer-clients';
import type { WebhookResources } from '../app/webhook-payloads';

type AccountsPeers = {
  accounts: Pick<PeerClients['accounts'], 'getInternalAccount' | 'getExternalAccount' | 'getCustomer'>;
  beneficialOwners: Pick<PeerClients['beneficialOwners'], 'listBeneficialOwners'>;
};

/** Reads accounts and customers from the accounts service and renders them with the REST renderers (lib/contract). */
export function createAccountsWebhookResources(peers: () => AccountsPeers): WebhookResources {
  return {
    async internalAccount(platformId, id) {
      const found = await unlessAbsent(peers().accounts.getInternalAccount({ id }, { platformId }));
      return found?.account && internalAccountJson(found.account);
    },
    async externalAccount(platformId, id) {
      const found = await unlessAbsent(peers().accounts.getExternalAccount({ id }, { platformId }));
      return found?.account && externalAccountJson(found.account);
    },
    /** As GET /customers/{id} answers it: a business embeds its beneficial owners (identifiers masked). */
    async customer(platformId, id) {
      const { accounts, beneficialOwners } = peers();
      const found = await unlessAbsent(accounts.getCustomer({ id }, { platformId }));
      if (!found?.customer) return undefined;
      const list: ListOwners = (request, context) => beneficialOwners.listBeneficialOwners(request, context);
      const owners = found.customer.customerType === 'BUSINESS' ? await ownersOf(list, { platformId }, id) : undefined;
      return customerJson(found.customer, owners);
    },
  };
}
