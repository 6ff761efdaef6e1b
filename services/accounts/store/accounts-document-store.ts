import type { DocumentCollection, DocumentStore } from '../../../lib/store/document-store';
import type { AccountsStore } from '../app/accounts-store';
import { createCustomerStore, type CustomerDocumentStore } from './customer-store';
import { createExternalAccountStore } from './external-account-store';
import { createInternalAccountStore } from './internal-account-store';
import { createInvitationStore } from './invitation-store';
import type { InvitationStore } from '../app/invitations';
import { createPlatformStore } from './platform-store';
import { createKycLinkStore, createVerificationStore } from './verification-store';
import { createBeneficialOwnerStore } from './beneficial-owner-store';
import { createDocumentRecordStore } from './document-record-store';
import { createImportStore } from './bulk-import-store';
import type { ImportStore } from '../app/bulk-import';

export interface AccountsDocumentStore extends AccountsStore {
  customers: CustomerDocumentStore;
  invitations: InvitationStore;
  imports: ImportStore;
  createIndexes(): Promise<void>;
  /** Collections whose documents carry an `_outbox`. */
  outboxCollections: DocumentCollection[];
}

/** The accounts store over any DocumentStore adapter (MongoDB or embedded). */
export function createAccountsDocumentStore(store: DocumentStore): AccountsDocumentStore {
  const collections = {
    platforms: store.collection('platforms'),
    customers: store.collection('customers'),
    internalAccounts: store.collection('internal_accounts'),
    externalAccounts: store.collection('external_accounts'),
    invitations: store.collection('invitations'),
    verifications: store.collection('verifications'),
    kycLinks: store.collection('kyc_links'),
    beneficialOwners: store.collection('beneficial_owners'),
    documents: store.collection('documents'),
    bulkImportJobs: store.collection('bulk_import_jobs'),
  };
  const platforms = createPlatformStore(collections.platforms);
  const customers = createCustomerStore(collections.customers);
  const internalAccounts = createInternalAccountStore(collections.internalAccounts);
  const externalAccounts = createExternalAccountStore(collections.externalAccounts);
  const verifications = createVerificationStore(collections.verifications);
  const kycLinks = createKycLinkStore(collections.kycLinks);
  const beneficialOwners = createBeneficialOwnerStore(collections.beneficialOwners);
  const documents = createDocumentRecordStore(collections.documents);
  const imports = createImportStore(collections.bulkImportJobs, store.collection('bulk_import_rows'));
  return {
    platforms,
    customers,
    internalAccounts,
    externalAccounts,
    invitations: createInvitationStore(collections.invitations),
    verifications,
    kycLinks,
    beneficialOwners,
    documents,
    imports,
    async createIndexes() {
      await platforms.createIndexes();
      await customers.createIndexes();
      await internalAccounts.createIndexes();
      await externalAccounts.createIndexes();
      await verifications.createIndexes();
      await kycLinks.createIndexes();
      await beneficialOwners.createIndexes();
      await documents.createIndexes();
      await imports.createIndexes();
    },
    outboxCollections: Object.values(collections),
  };
}
