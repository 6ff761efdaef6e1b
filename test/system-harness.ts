import { randomBytes } from 'node:crypto';
import { newId } from '../lib/ids';
import { createLogger, silentLogger, type Logger } from '../lib/log';
import { startSystem, type RunningSystem, type SystemOptions } from '../system';
import { API_VERSION } from '../gateway/gateway-app';
import { DEFAULT_SANDBOX, type SandboxIdentity } from '../gateway/sandbox-bootstrap';
import { apiUrl, checkResponse } from './contract/response-contract';
import { assertReferenceAccepts, reportReferenceProblems } from './contract/reference-contract';

export interface TestSystem {
  system: RunningSystem;
  baseUrl: string;
  rootUrl: string;
  sandbox: SandboxIdentity;
  /**
   * fetch against `{base_url}` with the sandbox credentials unless `auth: false` or other headers are given.
   * Every answer is checked against our OpenAPI document (status and body); a mismatch throws.
   */
  api(
    path: string,
    init?: RequestInit & { json?: unknown; auth?: boolean | string },
  ): Promise<{ status: number; body: any; headers: Headers }>;
  /** Bootstraps another platform with its own API token; answers its Basic auth header. */
  createPlatform(): Promise<{ platformId: string; auth: string }>;
  stop(): Promise<void>;
}

export function basicAuthHeader(tokenId: string, secret: string): string {
  return `Basic ${Buffer.from(`${tokenId}:${secret}`).toString('base64')}`;
}

/** The whole system in this process on the embedded defaults, gateway on a free port. */
export async function startTestSystem(
  options: { env?: NodeJS.ProcessEnv; logger?: Logger; components?: SystemOptions['components']; port?: number } = {},
): Promise<TestSystem> {
  const sandbox = DEFAULT_SANDBOX;
  // Tests poll and loop far faster than a platform should: the per-credential request rate is only
  // limited where a test sets GATEWAY_RATE_LIMIT_REQUESTS (edge-throttle.test.ts).
  const env = {
    ...process.env,
    MONGODB_URI: '',
    KAFKA_BROKERS: '',
    DATA_DIR: ':memory:',
    GATEWAY_RATE_LIMIT_REQUESTS: '100000000',
    GATEWAY_SHUTDOWN_GRACE_MS: '3000',
    ...options.env,
  };
  const system = await startSystem({
    // A test that needs fewer services starts fewer (each costs seconds on a busy machine); the gateway and auth are
    // always there.
    components: options.components ?? ['gateway', 'auth', 'accounts', 'quotes-transactions', 'notifications'],
    env,
    logger: options.logger ?? (process.env.TEST_LOGS ? createLogger() : silentLogger),
    bindAddress: () => '127.0.0.1:0',
    remoteAddresses: {},
    // operators' commands call the services with it
    ...(options.env?.INTERNAL_TOKEN ? { internalToken: options.env.INTERNAL_TOKEN } : {}),
    gateway: { host: '127.0.0.1', port: options.port ?? 0, sandbox },
  });
  const rootUrl = `http://127.0.0.1:${system.gateway!.port}`;
  const baseUrl = `${rootUrl}/${API_VERSION}`;
  const defaultAuth = basicAuthHeader(sandbox.tokenId, sandbox.clientSecret);
  return {
    system,
    baseUrl,
    rootUrl,
    sandbox,
    async api(path, init = {}) {
      const headers = new Headers(init.headers);
      if (init.auth !== false && !headers.has('authorization')) {
        headers.set('authorization', typeof init.auth === 'string' ? init.auth : defaultAuth);
      }
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
      } catch { /* not JSON */ }
      checkResponse({
        method: init.method ?? 'GET',
        url: apiUrl(path),
        status: response.status,
        body: parsed,
        contentType: response.headers.get('content-type'),
      });
      reportReferenceProblems(init.method ?? 'GET', apiUrl(path), response.status, parsed);
      assertReferenceAccepts(init.method ?? 'GET', apiUrl(path), response.status, parsed);
      return { status: response.status, body: parsed, headers: response.headers };
    },
    async createPlatform() {
      const platformId = newId('Platform');
      const tokenId = `token-${platformId.slice(-12)}`;
      const secret = randomBytes(24).toString('base64url');
      await system.peers.accounts.ensurePlatform({ platformId, name: 'Another platform' });
      await system.peers.apiTokens.ensureSandboxToken({ platformId, tokenId, clientSecret: secret });
      return { platformId, auth: basicAuthHeader(tokenId, secret) };
    },
    stop: () => system.stop(),
  };
}
