import { readConfig, readRunMode, setting } from '../../../lib/config';
import { createPeriodicTask } from '../../../lib/runtime/periodic-task';
import type { ServiceEnvironment } from '../../../lib/runtime/service-module';
import { createAesGcmSealer, readSealingKey } from '../../../lib/sealing/aes-gcm-sealer';
import { createBraleStablecoinProvider } from './adapters/brale-stablecoin-provider';
import { createPaymentAccountsPeer } from '../shared/adapters/payment-accounts-peer';
import { createSandboxStablecoinProvider } from './adapters/sandbox-stablecoin-provider';
import type { Ledger } from '../ledger/app/ledger';
import type { PaymentAccounts } from '../shared/app/payment-accounts';
import { createOperationProgress } from './app/operation-progress';
import { createStablecoinOperations } from './app/operations';
import { createProviderAccounts } from './app/provider-accounts';
import type { StablecoinProvider } from './app/stablecoin-ports';
import { createStablecoins } from './app/stablecoins';
import { bindStablecoinService } from './grpc/stablecoin-handlers';
import { readPaymentsConfig } from '../payments/payments-module';
import { createStablecoinDocumentStore } from './store/stablecoin-document-store';

/** Settings of stablecoin issuance (docs/api/stablecoins.md). */
export function readStablecoinsConfig(env: NodeJS.ProcessEnv) {
  return readConfig({
    /**
     * Stablecoin provider: `sandbox` (embedded, deterministic) or `brale` (Brale's HTTP API) @default sandbox with
     * GRID_MODE=sandbox, brale with GRID_MODE=production (which refuses sandbox)
     */
    STABLECOIN_PROVIDER: setting.providerChoice(['sandbox', 'brale'] as const, {
      sandbox: 'sandbox',
      production: 'brale',
    }, ['sandbox']),
    /** Brale's API base URL (the `brale` provider) */
    BRALE_API_URL: setting.string('https://api.brale.xyz'),
    /** Brale's OAuth 2.0 token endpoint (client credentials) */
    BRALE_TOKEN_URL: setting.string('https://auth.brale.xyz/oauth2/token'),
    /** Per-request timeout of calls to the stablecoin provider */
    STABLECOIN_PROVIDER_TIMEOUT_MS: setting.int(10_000, 10, 120_000),
    /** Attempts per provider call on timeouts, 429 and 5xx (bounded; the provider idempotency key makes them safe) */
    STABLECOIN_PROVIDER_ATTEMPTS: setting.int(3, 1, 10),
    /** How long a wire-funded mint or an external-wallet burn waits for its funds before it expires */
    STABLECOIN_FUNDING_WINDOW_SECONDS: setting.int(7 * 86_400, 1, 90 * 86_400),
    /** How often unfinished stablecoin operations are read from the provider */
    STABLECOIN_POLL_MS: setting.int(2_000, 10, 600_000),
    /** A GET of a provider account re-verifies its credentials when they were verified longer ago than this */
    STABLECOIN_REVERIFY_SECONDS: setting.int(300, 0, 86_400),
    /**
     * AES-256 key (64 hex characters) sealing provider client secrets; also keys (through HKDF) the signed lookup ids,
     * so every quotes-transactions replica needs the same value and changing it voids lookups not yet quoted (15
     * minutes at most); generated into the data directory when unset (embedded sandbox only; required with MONGODB_URI
     * or in production)
     */
    STABLECOIN_SECRET_KEY: setting.optionalHex(32),
  }, env);
}

export interface StablecoinsAdapters {
  ledger: Ledger;
  now: () => Date;
  accounts?: PaymentAccounts;
  provider?: StablecoinProvider;
}

/** Provider account links, registered stablecoins and their mints and burns, with the worker that follows them. */
export function createStablecoinsModule(environment: ServiceEnvironment, adapters: StablecoinsAdapters) {
  const config = readStablecoinsConfig(environment.env);
  const payments = readPaymentsConfig(environment.env);
  const clock = adapters.now;
  const store = createStablecoinDocumentStore(environment.store);
  const provider = adapters.provider
    ?? (config.STABLECOIN_PROVIDER === 'brale'
      ? createBraleStablecoinProvider({
        apiUrl: config.BRALE_API_URL,
        tokenUrl: config.BRALE_TOKEN_URL,
        timeoutMs: config.STABLECOIN_PROVIDER_TIMEOUT_MS,
        attempts: config.STABLECOIN_PROVIDER_ATTEMPTS,
      })
      : createSandboxStablecoinProvider({
        store: environment.store,
        clock,
        stepMs: payments.SANDBOX_SETTLEMENT_STEP_MS,
      }));
  const accounts = createProviderAccounts({
    store,
    provider,
    sealer: createAesGcmSealer(readSealingKey('STABLECOIN_SECRET_KEY', environment.env)),
    clock,
    logger: environment.logger,
    environment: readRunMode(environment.env) === 'sandbox' ? 'SANDBOX' : 'PRODUCTION',
    reverifyAfterMs: config.STABLECOIN_REVERIFY_SECONDS * 1000,
  });
  const stablecoins = createStablecoins({ store, provider, accounts, clock });
  const progress = createOperationProgress({
    store,
    provider,
    accounts,
    ledger: adapters.ledger,
    clock,
    logger: environment.logger,
    resubmitAfterMs: payments.LEDGER_RECOVERY_AFTER_MS,
    backoff: { baseMs: config.STABLECOIN_POLL_MS, maxMs: 300_000 },
  });
  const operations = createStablecoinOperations({
    store,
    stablecoins,
    accounts,
    progress,
    clock,
    paymentAccounts: adapters.accounts ?? createPaymentAccountsPeer(environment.peers),
    fundingWindowMs: config.STABLECOIN_FUNDING_WINDOW_SECONDS * 1000,
  });
  const worker = createPeriodicTask({
    name: 'stablecoin operations',
    intervalMs: config.STABLECOIN_POLL_MS,
    run: () => progress.tick(),
    logger: environment.logger,
  });
  return {
    binding: bindStablecoinService({ accounts, stablecoins, operations }),
    useCases: { accounts, stablecoins, operations, progress },
    async start() {
      await store.ensureIndexes();
      worker.start();
    },
    stop: () => worker.stop(),
  };
}
