import { randomBytes } from 'node:crypto';
import { WalletAuthServiceService } from '../../gen/auth/v1/wallet_auth';
import { SignedRetryServiceService } from '../../gen/auth/v1/signed_retry';
import { DeliveryServiceService } from '../../gen/notifications/v1/delivery';
import { API_VERSION } from '../../gateway/gateway-app';
import { DEFAULT_SANDBOX } from '../../gateway/sandbox-bootstrap';
import { createServiceClient, type ServiceClient } from '../../lib/grpc/grpc-client';
import { createLogger, silentLogger } from '../../lib/log';
import { startSystem } from '../../system';
import { basicAuthHeader, type TestSystem } from '../system-harness';

export interface WalletTestSystem extends TestSystem {
  /** gRPC clients of the auth and notifications services, as another service would call them. */
  walletAuth: ServiceClient<typeof WalletAuthServiceService>;
  signedRetry: ServiceClient<typeof SignedRetryServiceService>;
  delivery: ServiceClient<typeof DeliveryServiceService>;
  platformId: string;
}

/**
 * startTestSystem with a known internal token, so the tests can also call the auth service's
 * gRPC API (ProvisionWallet, SignedRetryService) the way the accounts service does.
 */
export async function startWalletTestSystem(env: NodeJS.ProcessEnv = {}): Promise<WalletTestSystem> {
  const sandbox = DEFAULT_SANDBOX;
  const internalToken = randomBytes(32).toString('base64url');
  const system = await startSystem({
    components: ['gateway', 'auth', 'accounts', 'quotes-transactions', 'notifications'],
    env: { ...process.env, MONGODB_URI: '', KAFKA_BROKERS: '', ...env },
    logger: process.env.TEST_LOGS ? createLogger() : silentLogger,
    bindAddress: () => '127.0.0.1:0', remoteAddresses: {}, internalToken,
    gateway: { host: '127.0.0.1', port: 0, sandbox },
  });
  const address = (name: string) => system.services.find((s) => s.name === name)!.address;
  const walletAuth = createServiceClient(WalletAuthServiceService, address('auth'), { internalToken });
  const signedRetry = createServiceClient(SignedRetryServiceService, address('auth'), { internalToken });
  const delivery = createServiceClient(DeliveryServiceService, address('notifications'), { internalToken });
  const rootUrl = `http://127.0.0.1:${system.gateway!.port}`;
  const baseUrl = `${rootUrl}/${API_VERSION}`;
  const defaultAuth = basicAuthHeader(sandbox.tokenId, sandbox.clientSecret);
  return {
    system, baseUrl, rootUrl, sandbox, walletAuth, signedRetry, delivery, platformId: sandbox.platformId,
    async api(path, init = {}) {
      const headers = new Headers(init.headers);
      if (init.auth !== false && !headers.has('authorization')) headers.set('authorization', typeof init.auth === 'string' ? init.auth : defaultAuth);
      let body = init.body;
      if (init.json !== undefined) {
        body = JSON.stringify(init.json);
        headers.set('content-type', 'application/json');
      }
      const response = await fetch(`${baseUrl}${path}`, { ...init, headers, body });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        /* not JSON */
      }
      return { status: response.status, body: parsed, headers: response.headers };
    },
    async stop() {
      walletAuth.close();
      signedRetry.close();
      delivery.close();
      await system.stop();
    },
  };
}
