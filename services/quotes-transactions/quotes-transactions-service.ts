import type { ServiceEnvironment, ServiceModule } from '../../lib/runtime/service-module';
import { createAccountsPeerDirectory } from './lookups/adapters/accounts-peer-directory';
import { createSandboxCounterparty, type Counterparty } from './lookups/adapters/counterparty';
import type { RateSource } from './rates/adapters/rate-source';
import { createConfiguredRateSource } from './rates/adapters/rate-source-config';
import { createAccountsUmaDirectory } from './payments/adapters/accounts-uma-directory';
import { createSameServerUmaCounterparty } from './lookups/adapters/same-server-uma-counterparty';
import { createSandboxUmaCounterparty } from './lookups/adapters/sandbox-uma-counterparty';
import { createSignedRetryWalletAuthorizer } from './payments/adapters/signed-retry-wallet-authorizer';
import { createGetLookup } from './lookups/app/get-lookup';
import { createRecentLookups } from './lookups/app/recent-lookups';
import { createSignedLookupIds, lookupIdKey } from './lookups/app/signed-lookup-ids';
import { readSealingKey } from '../../lib/sealing/aes-gcm-sealer';
import { createLookupExternalAccount } from './lookups/app/lookup-external-account';
import { createLookupRetention } from './lookups/app/lookup-retention';
import { createLookupUma, type UmaCounterparty } from './lookups/app/lookup-uma';
import { bindLookupService } from './lookups/grpc/lookup-handlers';
import { createLookupDocumentStore } from './lookups/store/lookup-document-store';
import type { PaymentAccounts } from './shared/app/payment-accounts';
import type { UmaAddressDirectory } from './payments/app/same-server-payments';
import type { WalletAuthorizer } from './payments/app/wallet-authorizer';
import { createIdempotencyModule } from './idempotency/idempotency-module';
import { createPaymentsModule } from './payments/payments-module';
import { createStablecoinsModule } from './stablecoins/stablecoins-module';
import type { StablecoinProvider } from './stablecoins/app/stablecoin-ports';
import { createCardsModule } from './cards/cards-module';
import { createUmaModule } from './uma/uma-module';
import { createPaymentAccountsPeer } from './shared/adapters/payment-accounts-peer';

/** The outside parties the service talks to; each defaults to its embedded sandbox. */
export interface QuotesTransactionsAdapters {
  rates: RateSource;
  counterparty: Counterparty;
  umaCounterparty: UmaCounterparty;
  now: () => Date;
  /** Payments read accounts over gRPC unless a test gives its own. */
  accounts?: PaymentAccounts;
  wallets?: WalletAuthorizer;
  /** Which customers on this server hold an UMA address (the accounts service unless a test gives its own). */
  umaDirectory?: UmaAddressDirectory;
  /** The stablecoin provider, when a test gives its own (otherwise STABLECOIN_PROVIDER decides). */
  stablecoinProvider?: StablecoinProvider;
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
  const umaDirectory = overrides.umaDirectory ?? createAccountsUmaDirectory(environment.peers);
  // A receiver on this server answers for itself; any other address is the outside counterparty's.
  // Outside this server: another VASP over the UMA protocol, or the simulator (uma/uma-module.ts decides; bound below).
  let outside: UmaCounterparty = adapters.umaCounterparty;
  const umaCounterparty = createSameServerUmaCounterparty({
    directory: umaDirectory,
    outside: { lookupUma: (request) => outside.lookupUma(request) },
  });
  const lookups = createLookupDocumentStore(environment.store);
  // Lookup ids prove themselves (no write per lookup), keyed from the service's data-directory key.
  const signedLookups = {
    ids: createSignedLookupIds(lookupIdKey(readSealingKey('STABLECOIN_SECRET_KEY', environment.env))),
    recent: createRecentLookups({ now: adapters.now }),
  };
  const getLookup = createGetLookup({ store: lookups, signed: signedLookups });
  const lookupRetention = createLookupRetention({
    store: lookups,
    now: adapters.now,
    keepAfterExpiryMs: 3_600_000,
    logger: environment.logger,
  });
  // The UMA module's hold is bound once both modules exist (it uses the payments module's store and runner).
  let umaHold: ReturnType<typeof createUmaModule>['settlementHold'];
  const payments = createPaymentsModule(environment, {
    ...adapters,
    getLookup,
    signedLookups,
    accounts: overrides.accounts,
    wallets: overrides.wallets ?? createSignedRetryWalletAuthorizer(environment.peers),
    umaDirectory,
    settlementHold: async (p, plan, now) => (umaHold ? umaHold(p, plan, now) : plan),
    beforeQuoteStored: (p) => uma.quoteUma(p),
  });
  const idempotency = createIdempotencyModule(environment, adapters.now);
  const stablecoins = createStablecoinsModule(environment, {
    ledger: payments.useCases.ledger,
    now: adapters.now,
    accounts: overrides.accounts,
    provider: overrides.stablecoinProvider,
  });
  const cards = createCardsModule(environment, { now: adapters.now, ledger: payments.useCases.ledger });
  const uma = createUmaModule(environment, {
    directory: umaDirectory,
    rates: adapters.rates,
    clock: adapters.now,
    payments: payments.ports,
    accounts: overrides.accounts ?? createPaymentAccountsPeer(environment.peers),
    simulated: adapters.umaCounterparty,
  });
  umaHold = uma.settlementHold;
  outside = uma.counterparty;

  return {
    name: 'quotes-transactions',
    eventsTopic: 'payments.events.v1',
    bindings: [
      bindLookupService({
        lookupExternalAccount: createLookupExternalAccount({
          accounts,
          counterparty: adapters.counterparty,
          rates: adapters.rates,
          store: lookups,
          now: adapters.now,
          signed: signedLookups,
        }),
        lookupUma: createLookupUma({
          accounts,
          counterparty: umaCounterparty,
          rates: adapters.rates,
          store: lookups,
          now: adapters.now,
          signed: signedLookups,
        }),
        getLookup,
      }),
      ...payments.bindings,
      idempotency.binding,
      stablecoins.binding,
      ...cards.bindings,
      uma.binding,
    ],
    outboxCollections: [...payments.outboxCollections, ...cards.outboxCollections],
    async start() {
      await lookups.ensureIndexes();
      await payments.start();
      await idempotency.start();
      await stablecoins.start();
      await cards.start();
      await uma.start();
      lookupRetention.start();
    },
    async stop() {
      await lookupRetention.stop();
      await stablecoins.stop();
      await cards.stop();
      await idempotency.stop();
      await payments.stop();
    },
  };
}
