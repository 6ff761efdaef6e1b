import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { silentLogger } from '../../lib/log';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { API_VERSION, createGatewayApp } from '../gateway-app';
import { createContractValidator } from './contract-ajv';
import { buildOpenApiDocument } from './openapi-document';
import { findOperation, OPERATIONS, servedPaths } from './operation-registry';

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
  rawPath?: unknown;
}

/** Every `METHOD /path` the Express app routes, path parameters written as `{name}`. */
function expressRoutes(app: Express): string[] {
  const found: string[] = [];
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      const mount = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
      // The dashboard's pages and session (gateway/dashboard/, docs/dashboard.md) are a browser application, not REST
      // operations.
      if (mount === '/dashboard') continue;
      if (layer.route) {
        for (const path of [layer.route.path].flat()) {
          for (const method of Object.keys(layer.route.methods)) {
            found.push(`${method.toUpperCase()} ${prefix}${path.replace(/:(\w+)/g, '{$1}')}`);
          }
        }
      } else if (layer.handle.stack) {
        walk(layer.handle.stack, prefix + mount);
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '');
  return found;
}

const app = createGatewayApp({ peers: {} as PeerClients, logger: silentLogger, servicesReady: async () => true });
const documented = OPERATIONS.flatMap((op) => servedPaths(op).map((path) => `${op.method.toUpperCase()} ${path}`));

describe('our OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', () => {
    const output = execFileSync(process.execPath, ['test/contract/validate-openapi.mjs'], {
      input: JSON.stringify(buildOpenApiDocument()),
    });
    const result = JSON.parse(output.toString());
    expect(result.errors).toEqual([]);
    expect(result).toMatchObject({ valid: true, version: '3.1' });
  });

  it('has exactly one operation for every route the gateway serves', () => {
    expect([...expressRoutes(app)].sort()).toEqual([...documented].sort());
    expect(new Set(OPERATIONS.map((op) => op.operationId)).size).toBe(OPERATIONS.length);
  });

  it('compiles every request and response schema (a schema ajv refuses would answer 500)', () => {
    const validate = createContractValidator();
    const schemas = OPERATIONS.flatMap((op) => [op.query, op.body?.schema, ...Object.values(op.responses)]).filter((
      s,
    ) => s);
    expect(schemas.length).toBeGreaterThan(300);
    for (const schema of schemas) expect(() => validate(schema!, {})).not.toThrow();
  });

  it('finds the operation of a request, fixed path segments before parameters', () => {
    expect(findOperation('GET', `/${API_VERSION}/customers/end-user-terms`)?.operationId).toBe('getEndUserTerms');
    expect(findOperation('GET', `/${API_VERSION}/customers/external-accounts`)?.operationId).toBe(
      'listExternalAccounts',
    );
    expect(findOperation('GET', `/${API_VERSION}/customers/Customer:1`)?.operationId).toBe('getCustomer');
    expect(findOperation('POST', `/${API_VERSION}/platform/external-accounts/x/verify`)?.operationId).toBe(
      'verifyPlatformOwnership',
    );
    expect(findOperation('PUT', `/${API_VERSION}/customers`)).toBeUndefined();
    expect(findOperation('GET', '/customers')).toBeUndefined();
  });

  describe('served', () => {
    let server: Server;
    let root: string;
    beforeAll(async () => {
      server = createServer(app);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it.each(['/openapi.json', `/${API_VERSION}/openapi.json`])('at %s without credentials', async (path) => {
      const response = await fetch(`${root}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const document = (await response.json()) as { paths: object };
      expect(document).toEqual(buildOpenApiDocument());
      expect(Object.keys(document.paths).length).toBeGreaterThan(40);
    });
  });
});
