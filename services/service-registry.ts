import type { ServiceFactory, ServiceName } from '../lib/runtime/service-module';
import { readTrustedWebhookEndpoints } from '../lib/net/trusted-webhook-endpoints';
import { readAccountsConfig } from './accounts/accounts-config';
import { readPiiKey, readSealingKey } from '../lib/sealing/aes-gcm-sealer';
import { createAccountsService } from './accounts/accounts-service';
import { createAuthService, pepperFrom } from './auth/auth-service';
import { readWalletAuthConfig } from './auth/wallet-auth-config';
import { createNotificationsService, messageDeliveryUrl } from './notifications/notifications-service';
import { readWebhookSettings } from './notifications/webhook-settings';
import { readPaymentsConfig } from './quotes-transactions/payments-module';
import { readStablecoinsConfig } from './quotes-transactions/stablecoins-module';
import { readCardsConfig } from './quotes-transactions/cards-module';
import { createQuotesTransactionsService } from './quotes-transactions/quotes-transactions-service';

export const SERVICE_FACTORIES: Record<ServiceName, ServiceFactory> = {
  auth: createAuthService,
  accounts: createAccountsService,
  'quotes-transactions': createQuotesTransactionsService,
  notifications: createNotificationsService,
};

/**
 * Each service's settings and keys, read before its store is opened: a missing key or a sandbox
 * switch refused in production stops the start at once (ConfigError), not after MongoDB answers.
 */
export const SERVICE_SETTINGS_CHECKS: Record<ServiceName, (env: NodeJS.ProcessEnv) => void> = {
  auth: (env) => { pepperFrom(env); readWalletAuthConfig(env); },
  accounts: (env) => { readAccountsConfig(env); readPiiKey(env); readTrustedWebhookEndpoints(env); },
  'quotes-transactions': (env) => { readPaymentsConfig(env); readStablecoinsConfig(env); readCardsConfig(env); readSealingKey('STABLECOIN_SECRET_KEY', env); readSealingKey('CARDS_DATA_KEY', env); },
  notifications: (env) => { readWebhookSettings(env); messageDeliveryUrl(env); readTrustedWebhookEndpoints(env); },
};
