import type { ServiceEnvironment, ServiceModule } from '../../lib/runtime/service-module';
import { createAccountsPeerDirectory } from './adapters/accounts-peer-directory';
import { createSandboxCounterparty, type Counterparty } from './adapters/counterparty';
import { createSandboxRateSource, type RateSource } from './adapters/rate-source';
import { createGetLookup } from './app/get-lookup';
import { createLookupExternalAccount } from './app/lookup-external-account';
import { bindLookupService } from './grpc/lookup-handlers';
import { createLookupDocumentStore } from './store/lookup-document-store';

/** The outside parties the service talks to; each defaults to its embedded sandbox. */
export interface QuotesTransactionsAdapters {
  rates: RateSource;
  counterparty: Counterparty;
  now: () => Date;
}

/**
 * Lookups now; quotes and transactions join as further use cases sharing the same adapters,
 * each with its own binding in `bindings`.
 */
export function createQuotesTransactionsService(
  environment: ServiceEnvironment,
  overrides: Partial<QuotesTransactionsAdapters> = {},
): ServiceModule {
  const adapters: QuotesTransactionsAdapters = {
    rates: overrides.rates ?? createSandboxRateSource(),
    counterparty: overrides.counterparty ?? createSandboxCounterparty(),
    now: overrides.now ?? (() => new Date()),
  };
  const accounts = createAccountsPeerDirectory(environment.peers);
  const lookups = createLookupDocumentStore(environment.store);

  return {
    name: 'quotes-transactions',
    eventsTopic: 'payments.events.v1',
    bindings: [
      bindLookupService({
        lookupExternalAccount: createLookupExternalAccount({ accounts, counterparty: adapters.counterparty, rates: adapters.rates, store: lookups, now: adapters.now }),
        getLookup: createGetLookup({ store: lookups }),
      }),
    ],
  };
}
