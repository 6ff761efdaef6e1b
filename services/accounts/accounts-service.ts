import { readRunMode } from '../../lib/config';
import { newEvent } from '../../lib/bus/outbox';
import type { ServiceEnvironment, ServiceModule } from '../../lib/runtime/service-module';
import { readAccountsConfig } from './accounts-config';
import { readTrustedWebhookEndpoints } from '../../lib/net/trusted-webhook-endpoints';
import { createAesGcmSealer, readPiiKey } from '../../lib/sealing/aes-gcm-sealer';
import { createAuthSignedRetries } from './adapters/auth-signed-retries';
import { createAuthWalletCredentials } from './adapters/auth-wallet-credentials';
import { createAuthWalletProvisioner } from './adapters/auth-wallet-provisioner';
import { createLedgerBalanceSource } from './adapters/ledger-balance-source';
import { createSandboxDirectory } from './adapters/sandbox-directory';
import { createAccountProvisioning } from './app/account-provisioning';
import { createCustomerEmailChange } from './app/customer-email-change';
import { createCustomers } from './app/customers';
import { createDirectoryQueries } from './app/directory';
import { createExternalAccounts } from './app/external-accounts';
import { createInternalAccounts } from './app/internal-accounts';
import { createInvitations } from './app/invitations';
import { createOwnershipVerification } from './app/ownership-verification';
import { createFindUmaAddressHolders, createPaymentParties } from './app/payment-parties';
import { createPlatformConfigs } from './app/platform-configs';
import { createPlatforms } from './app/platforms';
import { createRepairWorker, type RepairWorker } from './app/repair-worker';
import { bindAccountsService } from './grpc/accounts-handlers';
import { bindDirectoryService } from './grpc/directory-handlers';
import { bindInvitationService } from './grpc/invitation-handlers';
import { bindKycService } from './grpc/kyc-handlers';
import { bindBeneficialOwnerService } from './grpc/beneficial-owner-handlers';
import { createBeneficialOwners } from './app/beneficial-owners';
import { bindDocumentService } from './grpc/document-handlers';
import { bindContactVerificationService } from './grpc/contact-verification-handlers';
import { createContactVerification } from './app/contact-verification';
import { createContactChallengeStore } from './store/contact-challenge-store';
import { customerMessage } from './grpc/proto-mappers';
import { bindBulkImportService } from './grpc/bulk-import-handlers';
import { createBulkImport } from './app/bulk-import';
import { createDocuments } from './app/documents';
import { documentStorageFromEnv } from './adapters/document-storage-settings';
import { createManualReviewKycProvider } from './adapters/manual-review-kyc-provider';
import { createSandboxKycProvider } from './adapters/sandbox-kyc-provider';
import { createVerifications } from './app/verifications';
import { createComplianceFacts } from './app/compliance-facts';
import { assertContactVerified } from './domain/contact-verification';
import { createPeriodicTask } from '../../lib/runtime/periodic-task';
import { createAccountsDocumentStore } from './store/accounts-document-store';
import { createScaStore } from './store/sca-store';
import { createScaProofs } from './app/sca-proofs';
import { createScaFactors } from './app/sca';
import { createBeneficiaryTrust } from './app/beneficiary-trust';
import { createTwoFactorResets } from './app/sca-recovery';
import { createSandboxLivenessProvider } from './adapters/sandbox-liveness-provider';
import { bindScaService } from './grpc/sca-handlers';

export function createAccountsService(environment: ServiceEnvironment): ServiceModule & { repair: RepairWorker } {
  const config = readAccountsConfig(environment.env);
  const sealer = createAesGcmSealer(readPiiKey(environment.env));
  const store = createAccountsDocumentStore(environment.store);
  const clock = () => new Date();
  const logger = environment.logger;
  const provisioning = createAccountProvisioning({
    store,
    newEvent,
    clock,
    logger,
    wallets: createAuthWalletProvisioner(environment.peers),
  });
  const platforms = createPlatforms({ store, provisioning, newEvent, clock, defaults: config.platformDefaults });
  const ownership = createOwnershipVerification({ store, newEvent, clock, settings: config.ownership });
  const wallets = createAuthWalletCredentials(environment.peers);
  const emailChange = createCustomerEmailChange({
    store,
    credentials: wallets,
    retries: createAuthSignedRetries(environment.peers),
    clock,
    logger,
  });
  const repair = createRepairWorker({
    store,
    provisioning,
    ownership,
    emailChange,
    clock,
    logger,
    ...config.repair,
    ...(environment.leases ? { lease: environment.leases('accounts repair') } : {}),
  });
  const platformConfigs = createPlatformConfigs({
    store,
    provisioning,
    newEvent,
    clock,
    webhookEndpoints: {
      allowLocal: config.ownership.sandbox,
      requireResolvable: readRunMode(environment.env) === 'production',
      trusted: readTrustedWebhookEndpoints(environment.env).origins,
    },
  });
  const balances = createLedgerBalanceSource({ peers: environment.peers, logger });
  const customers = createCustomers({
    store,
    platforms,
    provisioning,
    emailChange,
    sealer,
    terms: config.terms,
    newEvent,
    clock,
    balances,
  });
  const scaStore = createScaStore(environment.store);
  const externalAccounts = createExternalAccounts({
    store,
    newEvent,
    clock,
    isTrustedBeneficiary: (platformId, id) => scaStore.trusted.isTrusted(platformId, id),
  });
  const invitations = createInvitations({
    store: store.invitations,
    customers: store.customers,
    webhookEndpoint: (platformId) => platformConfigs.webhookEndpoint(platformId),
    newEvent,
    clock,
    urlBase: config.invitationUrlBase,
  });
  const documentStorage = documentStorageFromEnv(environment.env);
  const documents = createDocuments({
    store,
    storage: documentStorage.storage,
    sandbox: config.ownership.sandbox,
    clock,
  });
  const verifications = createVerifications({
    store,
    provider: config.kyc.simulated ? createSandboxKycProvider() : createManualReviewKycProvider(),
    facts: createComplianceFacts(store),
    assertContactVerified,
    newEvent,
    clock,
    settings: config.kyc,
  });
  const bulkImport = createBulkImport({
    store: store.imports,
    customers,
    newEvent,
    clock,
    logger,
    claimTimeoutMs: config.bulkImport.claimTimeoutMs,
  });
  const importWorker = createPeriodicTask({
    name: 'customer imports',
    logger,
    intervalMs: config.bulkImport.pollMs,
    run: () => bulkImport.work(),
  });
  const verificationWorker = createPeriodicTask({
    name: 'verification steps',
    logger,
    intervalMs: Math.min(1000, Math.max(50, Math.floor(config.kyc.stepMs / 2))),
    run: () => verifications.advanceDue(),
    ...(environment.leases ? { lease: environment.leases('verification steps') } : {}),
  });
  const messenger = {
    send: async (message: Parameters<typeof environment.peers.delivery.sendMessage>[0]) =>
      void (await environment.peers.delivery.sendMessage(message)),
  };
  const scaDeps = { store, sca: scaStore, sealer, messenger, settings: config.sca, clock };
  const scaProofs = createScaProofs(scaDeps);
  const liveness = createSandboxLivenessProvider({
    delayMs: config.ownership.liveness.delayMs,
    linkBase: `${config.ownership.liveness.baseUrl}/sca-reset`,
  });
  const linkRetention = createPeriodicTask({
    name: 'expired KYC links',
    logger,
    intervalMs: 600_000,
    run: () => verifications.forgetExpiredLinks(),
  });
  return {
    name: 'accounts',
    eventsTopic: 'accounts.events.v1',
    outboxCollections: store.outboxCollections,
    bindings: [
      bindAccountsService({
        platforms,
        platformConfigs,
        terms: config.terms,
        paymentsRequireKycApproval: config.kyc.paymentsRequireApproval,
        customers,
        internalAccounts: createInternalAccounts({ store, wallets, balances }),
        externalAccounts,
        ownership,
        getPaymentParties: createPaymentParties({ store, customers, externalAccounts, platformConfigs }),
        findUmaAddressHolders: createFindUmaAddressHolders({ store }),
      }),
      bindInvitationService(invitations),
      bindDirectoryService(createDirectoryQueries(createSandboxDirectory())),
      bindKycService(verifications),
      bindBeneficialOwnerService(createBeneficialOwners({ store, sealer, clock })),
      bindDocumentService(documents),
      bindBulkImportService(bulkImport),
      bindContactVerificationService(
        createContactVerification({
          store,
          clock,
          settings: config.contact,
          challenges: createContactChallengeStore(environment.store.collection('contact_challenges')),
          messenger,
        }),
        (c) => customerMessage(c, config.terms, config.kyc.paymentsRequireApproval),
      ),
      bindScaService({
        factors: createScaFactors(scaDeps, scaProofs),
        proofs: scaProofs,
        trust: createBeneficiaryTrust(scaDeps, scaProofs),
        resets: createTwoFactorResets({ ...scaDeps, liveness }, scaProofs),
        origins: config.sca.relyingParty.origins,
      }),
    ],
    repair,
    async start() {
      await store.createIndexes();
      logger.info('document files', { where: documentStorage.where });
      await scaStore.createIndexes();
      const sealed = await store.customers.sealLegacyIdentifiers((plain, id) => sealer.seal(plain, id));
      if (sealed) {
        logger.info('sealed identification numbers stored in plain text by an earlier version', { count: sealed });
      }
      repair.start();
      verificationWorker.start();
      importWorker.start();
      linkRetention.start();
    },
    stop: async () => {
      await linkRetention.stop();
      await importWorker.stop();
      await verificationWorker.stop();
      await repair.stop();
      await documentStorage.close();
    },
  };
}
