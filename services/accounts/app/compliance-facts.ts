import { ownerFacts } from '../domain/beneficial-owner';
import type { AccountsStore } from './accounts-store';
import type { ComplianceFacts } from './verifications';

/** Beneficial owners and documents as verification reads them, from this service's store. */
export function createComplianceFacts(store: AccountsStore): ComplianceFacts {
  return {
    async ownersOf(platformId, customerId) {
      return (await store.beneficialOwners.ofCustomer(platformId, customerId)).map(ownerFacts);
    },
    async documentsOf(platformId, holderIds) {
      return (await store.documents.ofHolders(platformId, holderIds)).map((d) => ({
        id: d.id,
        holderId: d.documentHolder,
        documentType: d.documentType,
      }));
    },
  };
}
