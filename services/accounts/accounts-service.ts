import { newEvent } from '../../lib/bus/outbox';
import { ConfigError, readConfig, setting } from '../../lib/config';
import type { ServiceEnvironment, ServiceModule } from '../../lib/runtime/service-module';
import { createCustomers } from './app/customers';
import { createExternalAccounts } from './app/external-accounts';
import { createInternalAccounts } from './app/internal-accounts';
import { createPlatforms } from './app/platforms';
import { CURRENCY_CODES } from './domain/currencies';
import { bindAccountsService } from './grpc/accounts-handlers';
import { createAccountsDocumentStore } from './store/accounts-document-store';

const CONFIG = {
  /** Currencies a new platform supports (comma-separated); customer internal accounts open in these. */
  ACCOUNTS_PLATFORM_CURRENCIES: setting.string('USD,EUR,MXN,BRL,INR,USDC,BTC'),
  /** Domain of generated customer UMA addresses. */
  ACCOUNTS_UMA_DOMAIN: setting.string('uma.sandbox.local'),
};

function currencyList(value: string): string[] {
  const codes = [...new Set(value.split(',').map((c) => c.trim().toUpperCase()).filter(Boolean))];
  const unknown = codes.filter((c) => !CURRENCY_CODES.includes(c));
  if (!codes.length || unknown.length) {
    throw new ConfigError('ACCOUNTS_PLATFORM_CURRENCIES', `must list currencies among ${CURRENCY_CODES.join(', ')}${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}`);
  }
  return codes;
}

export function createAccountsService(environment: ServiceEnvironment): ServiceModule {
  const config = readConfig(CONFIG, environment.env);
  const store = createAccountsDocumentStore(environment.store);
  const clock = () => new Date();
  const defaults = { supportedCurrencies: currencyList(config.ACCOUNTS_PLATFORM_CURRENCIES), umaDomain: config.ACCOUNTS_UMA_DOMAIN };
  const platforms = createPlatforms({ store, newEvent, clock, defaults });
  return {
    name: 'accounts',
    eventsTopic: 'accounts.events.v1',
    outboxCollections: store.outboxCollections,
    bindings: [
      bindAccountsService({
        platforms,
        customers: createCustomers({ store, platforms, newEvent, clock }),
        internalAccounts: createInternalAccounts({ store }),
        externalAccounts: createExternalAccounts({ store, newEvent, clock }),
      }),
    ],
    start: () => store.createIndexes(),
  };
}
