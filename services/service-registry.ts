import type { ServiceFactory, ServiceName } from '../lib/runtime/service-module';

export interface ServiceRegistration {
  factory: ServiceFactory;
  /**
   * The service's settings and keys, read before its store is opened: a missing key or a sandbox
   * switch refused in production stops the start at once (ConfigError), not after MongoDB answers.
   */
  checkSettings(env: NodeJS.ProcessEnv): void;
}

/**
 * Each service's code, loaded when that service is hosted, and only its own: a process or thread
 * that runs one service (a component alone, a service thread of the all-in-one process) loads
 * nothing of the others.
 */
export const SERVICE_REGISTRY: Record<ServiceName, () => Promise<ServiceRegistration>> = {
  auth: async () => {
    const [{ createAuthService, pepperFrom }, { readWalletAuthConfig }] = await Promise.all([
      import('./auth/auth-service'),
      import('./auth/wallet-auth-config'),
    ]);
    return {
      factory: createAuthService,
      checkSettings: (env) => {
        pepperFrom(env);
        readWalletAuthConfig(env);
      },
    };
  },
  accounts: async () => {
    const [{ createAccountsService }, { readAccountsConfig }, { readPiiKey }, { readTrustedWebhookEndpoints }] =
      await Promise.all([
        import('./accounts/accounts-service'),
        import('./accounts/accounts-config'),
        import('../lib/sealing/aes-gcm-sealer'),
        import('../lib/net/trusted-webhook-endpoints'),
      ]);
    return {
      factory: createAccountsService,
      checkSettings: (env) => {
        readAccountsConfig(env);
        readPiiKey(env);
        readTrustedWebhookEndpoints(env);
      },
    };
  },
  'quotes-transactions': async () => {
    const [
      { createQuotesTransactionsService },
      { readPaymentsConfig },
      { readStablecoinsConfig },
      { readCardsConfig },
      { readSealingKey },
    ] = await Promise.all([
      import('./quotes-transactions/quotes-transactions-service'),
      import('./quotes-transactions/payments/payments-module'),
      import('./quotes-transactions/stablecoins/stablecoins-module'),
      import('./quotes-transactions/cards/cards-module'),
      import('../lib/sealing/aes-gcm-sealer'),
    ]);
    return {
      factory: createQuotesTransactionsService,
      checkSettings: (env) => {
        readPaymentsConfig(env);
        readStablecoinsConfig(env);
        readCardsConfig(env);
        readSealingKey('STABLECOIN_SECRET_KEY', env);
        readSealingKey('CARDS_DATA_KEY', env);
      },
    };
  },
  notifications: async () => {
    const [
      { createNotificationsService, messageDeliveryUrl },
      { readWebhookSettings },
      { readTrustedWebhookEndpoints },
    ] = await Promise.all([
      import('./notifications/notifications-service'),
      import('./notifications/webhook-settings'),
      import('../lib/net/trusted-webhook-endpoints'),
    ]);
    return {
      factory: createNotificationsService,
      checkSettings: (env) => {
        readWebhookSettings(env);
        messageDeliveryUrl(env);
        readTrustedWebhookEndpoints(env);
      },
    };
  },
};
