import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_VERSION, createGatewayApp } from '../../../gateway/gateway-app';
import { AppError } from '../../../lib/errors';
import { silentLogger } from '../../../lib/log';
import type { PeerClients } from '../../../lib/runtime/peer-clients';
import { checkResponse } from '../../../test/contract/response-contract';
import { startAccountsService, type HarnessOptions } from './accounts-service-harness';

/**
 * The gateway in front of the real accounts service (on gRPC), with API tokens stubbed: each
 * platform made by `newPlatform` gets a token whose Basic header `api` sends.
 */
export async function startAccountsGateway(env: NodeJS.ProcessEnv = {}, options: HarnessOptions = {}) {
  const accounts = await startAccountsService(env, options);
  const tokens = new Map<string, string>();
  const apiTokens = {
    async authenticateApiToken({ tokenId, clientSecret }: { tokenId: string; clientSecret: string }) {
      const platformId = tokens.get(tokenId);
      if (!platformId || clientSecret !== `secret-${tokenId}`) {
        throw new AppError('UNAUTHORIZED', 'Invalid API credentials');
      }
      return { platformId, tokenId, permissions: ['VIEW', 'TRANSACT', 'MANAGE'] };
    },
  };
  const peers = { accounts: accounts.client, apiTokens } as unknown as PeerClients;
  const app = createGatewayApp({ peers, logger: silentLogger, servicesReady: async () => true, authCacheMs: 0 });
  const server: Server = await new Promise((resolve) => {
    const s = createServer(app).listen(0, '127.0.0.1', () => resolve(s));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/${API_VERSION}`;
  return {
    accounts,
    async newPlatform() {
      const { platformId } = await accounts.newPlatform();
      const tokenId = `token-${tokens.size + 1}`;
      tokens.set(tokenId, platformId);
      return { platformId, auth: `Basic ${Buffer.from(`${tokenId}:secret-${tokenId}`).toString('base64')}` };
    },
    async api(auth: string, path: string, init: { method?: string; json?: unknown } = {}) {
      const headers: Record<string, string> = { authorization: auth };
      if (init.json !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`${baseUrl}${path}`, {
        method: init.method ?? 'GET',
        headers,
        body: init.json === undefined ? undefined : JSON.stringify(init.json),
      });
      const text = await response.text();
      const body = (text ? JSON.parse(text) : undefined) as any;
      checkResponse({
        method: init.method ?? 'GET',
        url: `/${API_VERSION}${path}`,
        status: response.status,
        body,
        contentType: response.headers.get('content-type'),
      });
      return { status: response.status, body };
    },
    async stop() {
      await new Promise((resolve) => server.close(resolve));
      await accounts.stop();
    },
  };
}
