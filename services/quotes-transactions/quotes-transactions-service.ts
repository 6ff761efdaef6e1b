import type { ServiceEnvironment, ServiceModule } from '../../lib/runtime/service-module';
import { createAccountsPeerDirectory } from './adapters/accounts-peer-directory';
import { createSandboxCounterparty, type Counterparty } from './adapters/counterparty';
import type { RateSource } from './adapters/rate-source';
import { createConfiguredRateSource } from './adapters/rate-source-config';
import { createSandboxUmaCounterparty } from './adapters/sandbox-uma-counterparty';
import { createSignedRetryWalletAuthorizer } from './adapters/signed-retry-wallet-authorizer';
import { createGetLookup } from './app/get-lookup';
import { createLookupExternalAccount } from './app/lookup-external-account';
import { createLookupRetention } from './app/lookup-retention';
import { createLookupUma, type UmaCounterparty } from './app/lookup-uma';
import { bindLookupService } from './grpc/lookup-handlers';
import { createLookupDocumentStore } from './store/lookup-document-store';
import type { PaymentAccounts } from './app/payment-accounts';
import type { WalletAuthorizer } from './app/wallet-authorizer';
import { createPaymentsModule } from './payments-module';

/** The outside parties the service talks to; each defaults to its embedded sandbox. */
export interface QuotesTransactionsAdapters {
  rates: RateSource;
  counterparty: Counterparty;
  umaCounterparty: UmaCounterparty;
  now: () => Date;
  /** Payments read accounts over gRPC unless a test gives its own. */
  accounts?: PaymentAccounts;
  wallets?: WalletAuthorizer;
}

/**
 * Lookups, and the payments built on them (quotes, transactions, the ledger, the sandbox), sharing
 * the same adapters; the settlement worker runs while the service runs.
 */
export function createQuotesTransactionsService(
  environment: ServiceEnvironment,
  overrides: Partial<QuotesTransactionsAdapters> = {},
): ServiceModule {
  const now = overrides.now ?? (() => new Date());
  const adapters: QuotesTransactionsAdapters = {
    rates: overrides.rates ?? createConfiguredRateSource(environment.env, now),
    counterparty: overrides.counterparty ?? createSandboxCounterparty(),
    umaCounterparty: overrides.umaCounterparty ?? createSandboxUmaCounterparty(),
    now,
  };
  const accounts = createAccountsPeerDirectory(environment.peers);
  const lookups = createLookupDocumentStore(environment.store);
  const getLookup = createGetLookup({ store: lookups });
  const lookupRetention = createLookupRetention({ store: lookups, now: adapters.now, keepAfterExpiryMs: 3_600_000, logger: environment.logger });
  const payments = createPaymentsModule(environment, { ...adapters, getLookup, accounts: overrides.accounts, wallets: overrides.wallets ?? createSignedRetryWalletAuthorizer(environment.peers) });

  return {
    name: 'quotes-transactions',
    eventsTopic: 'payments.events.v1',
    bindings: [
      bindLookupService({
        lookupExternalAccount: createLookupExternalAccount({ accounts, counterparty: adapters.counterparty, rates: adapters.rates, store: lookups, now: adapters.now }),
        lookupUma: createLookupUma({ accounts, counterparty: adapters.umaCounterparty, rates: adapters.rates, store: lookups, now: adapters.now }),
        getLookup,
      }),
      ...payments.bindings,
    ],
    outboxCollections: payments.outboxCollections,
    async start() {
      await lookups.ensureIndexes();
      await payments.start();
      lookupRetention.start();
    },
    async stop() {
      await lookupRetention.stop();
      await payments.stop();
    },
  };
}
