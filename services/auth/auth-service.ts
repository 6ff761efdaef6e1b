import { randomBytes } from 'node:crypto';
import { createOutboxRelay, newEvent } from '../../lib/bus/outbox';
import { ConfigError, readConfig, setting, whyKeysAreRequired } from '../../lib/config';
import { API_TOKEN_EVENTS_TOPIC } from '../../lib/contract/api-token-events';
import type { ServiceEnvironment, ServiceModule } from '../../lib/runtime/service-module';
import { createAgentsModule } from './agents-module';
import { createApiTokens } from './app/api-tokens';
import { bindApiTokenService } from './grpc/api-token-handlers';
import { bindSignedRetryService } from './grpc/signed-retry-handlers';
import { bindWalletAuthService } from './grpc/wallet-auth-handlers';
import { createApiTokenStore } from './store/api-token-store';
import { createWalletAuth } from './wallet-auth-module';

/** The pepper must survive restarts whenever the data does (MongoDB); the embedded store does not. */
export function pepperFrom(env: NodeJS.ProcessEnv): Buffer {
  const configured = env.API_SECRET_PEPPER?.trim();
  if (configured) {
    if (configured.length < 32) throw new ConfigError('API_SECRET_PEPPER', 'must be at least 32 characters');
    return Buffer.from(configured, 'utf8');
  }
  const why = whyKeysAreRequired(env);
  if (why) throw new ConfigError('API_SECRET_PEPPER', `is required ${why} (at least 32 characters)`);
  return randomBytes(32);
}

export function createAuthService(environment: ServiceEnvironment): ServiceModule {
  const tokenStore = createApiTokenStore(environment.store);
  const quotas = readConfig({
    /** Live API tokens one platform may hold; one more answers 409. */
    AUTH_MAX_API_TOKENS_PER_PLATFORM: setting.int(100, 1, 100_000),
  }, environment.env);
  const apiTokens = createApiTokens({
    store: tokenStore,
    pepper: pepperFrom(environment.env),
    newEvent,
    maxTokensPerPlatform: quotas.AUTH_MAX_API_TOKENS_PER_PLATFORM,
  });
  // Token events go to their own topic (gateways, not webhooks), so they have their own relay.
  const tokenEvents = createOutboxRelay({
    collections: [tokenStore.tokens],
    bus: environment.bus,
    topic: API_TOKEN_EVENTS_TOPIC,
    logger: environment.logger,
  });
  const walletAuth = createWalletAuth(environment);
  const agents = createAgentsModule(environment);
  return {
    name: 'auth',
    eventsTopic: 'auth.events.v1',
    bindings: [
      bindApiTokenService(apiTokens),
      bindWalletAuthService(walletAuth),
      bindSignedRetryService(walletAuth.external),
      agents.binding,
    ],
    async start() {
      await tokenStore.createIndexes();
      await agents.start();
      await walletAuth.start();
      tokenEvents.start();
    },
    async stop() {
      await tokenEvents.stop();
      await walletAuth.stop();
    },
  };
}
