import { OPERATIONS, servedPaths } from '../../gateway/contract/operation-registry';
import { OPERATION_PERMISSIONS } from '../../gateway/contract/operation-permissions';
import { basicAuthHeader, startTestSystem, type TestSystem } from '../system-harness';
import { connectedAgent, policy } from './agent-fixtures';

/**
 * Every route, every method, every kind of credential: nothing reaches a handler
 * without the permission the one table gives its operation, and nothing changes for a refused request.
 */
let sys: TestSystem;
let view: string;
let manage: string;
let agent: string;
let customerId: string;
let tokenId: string;

beforeAll(async () => {
  sys = await startTestSystem();
  const token = async (permissions: string[]) => {
    const res = await sys.api('/tokens', { method: 'POST', json: { name: `walk ${permissions.join()}`, permissions } });
    expect(res.status).toBe(201);
    return { id: res.body.id as string, auth: basicAuthHeader(res.body.clientId, res.body.clientSecret) };
  };
  view = (await token(['VIEW'])).auth;
  const managed = await token(['MANAGE']);
  manage = managed.auth;
  tokenId = managed.id;
  const customer = await sys.api('/customers', {
    method: 'POST',
    json: { customerType: 'INDIVIDUAL', platformCustomerId: 'walk-1', fullName: 'Walk Er' },
  });
  expect(customer.status).toBe(201);
  customerId = customer.body.id;
  agent = (await connectedAgent(sys, customerId, policy())).bearer;
}, 120_000);
afterAll(() => sys.stop());

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND'] as const;
type Credential = 'none' | 'view' | 'manage' | 'agent';
const CREDENTIALS: Credential[] = ['none', 'view', 'manage', 'agent'];

/** Every served path with its parameters filled in (real ids where the route reads one). */
function concretePaths(): string[] {
  const paths = new Set<string>();
  for (const op of OPERATIONS) {
    for (const template of servedPaths(op)) {
      paths.add(
        template.replace(/\{customerId\}/g, customerId).replace(/\{tokenId\}/g, tokenId).replace(
          /\{[^}]+\}/g,
          'Unknown:1',
        ),
      );
    }
  }
  return [...paths];
}

/** What the table allows a credential for the operation at (method, path), or undefined when no operation is served. */
function allowed(method: string, path: string, credential: Credential): boolean {
  const m = method === 'HEAD' ? 'get' : method.toLowerCase();
  const op = OPERATIONS.find((o) =>
    o.method === m && servedPaths(o).some((t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path))
    && mostSpecific(o, path)
  );
  if (!op) return false;
  const required = (OPERATION_PERMISSIONS as Record<string, string>)[op.operationId];
  if (required === 'PUBLIC') return true;
  if (required === 'AGENT') return credential === 'agent';
  if (credential === 'none' || credential === 'agent') return false;
  if (required === 'VIEW') return true;
  return credential === 'manage' && required === 'MANAGE';
}

/** Fixed segments win over parameters (`/customers/kyc-link` over `/customers/{customerId}`). */
function mostSpecific(op: (typeof OPERATIONS)[number], path: string): boolean {
  const literal = (t: string) => t.split('/').filter((s) => s && !s.startsWith('{')).length;
  const matching = OPERATIONS.filter((o) =>
    o.method === op.method && servedPaths(o).some((t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path))
  );
  const best = Math.max(...matching.flatMap((o) => servedPaths(o).map(literal)));
  return servedPaths(op).some((t) => literal(t) === best);
}

function authOf(credential: Credential): Record<string, string> {
  switch (credential) {
    case 'none':
      return {};
    case 'view':
      return { authorization: view };
    case 'manage':
      return { authorization: manage };
    case 'agent':
      return { authorization: agent };
  }
}

async function send(method: string, path: string, credential: Credential) {
  const body = ['POST', 'PUT', 'PATCH', 'PROPFIND'].includes(method) ? '{}' : undefined;
  const res = await fetch(`${sys.rootUrl}${path}`, {
    method,
    body,
    headers: { ...authOf(credential), ...(body ? { 'content-type': 'application/json' } : {}) },
  });
  const text = await res.text();
  let parsed: any;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: res.status, code: parsed?.code as string | undefined, allow: res.headers.get('allow') };
}

/** What the platform holds that a refused request could have changed. */
async function snapshot() {
  const count = async (path: string) => {
    const res = await sys.api(path);
    expect(res.status).toBe(200);
    return JSON.stringify(res.body.data.map((d: any) => [d.id, d.updatedAt ?? d.status]));
  };
  return {
    customers: await count('/customers?limit=100'),
    tokens: await count('/tokens?limit=100'),
    agents: await count('/agents?limit=100'),
    externalAccounts: await count(`/customers/external-accounts?customerId=${customerId}&limit=100`),
  };
}

test(
  'a request the table does not allow is refused before any handler, whatever its method, and changes nothing',
  async () => {
    const before = await snapshot();
    const refusedWrongly: string[] = [];
    const crashed: string[] = [];
    let sent = 0;
    for (const path of concretePaths()) {
      const requests = METHODS.flatMap((method) => CREDENTIALS.map((credential) => ({ method, credential })));
      await Promise.all(requests.map(async ({ method, credential }) => {
        if (allowed(method, path, credential)) return;
        const res = await send(method, path, credential);
        sent++;
        if (res.status >= 500) crashed.push(`${method} ${path} as ${credential}: ${res.status}`);
        const refusals = ['UNAUTHORIZED', 'FORBIDDEN', 'METHOD_NOT_ALLOWED', 'NOT_FOUND'];
        // HEAD answers carry no body: the status alone says it was refused.
        const refused = method === 'HEAD'
          ? [401, 403, 404, 405].includes(res.status)
          : refusals.includes(res.code ?? '') && res.status < 500;
        if (!refused) refusedWrongly.push(`${method} ${path} as ${credential}: ${res.status} ${res.code ?? ''}`);
      }));
    }
    expect(crashed).toEqual([]);
    expect(refusedWrongly).toEqual([]);
    expect(sent).toBeGreaterThan(1_000);
    expect(await snapshot()).toEqual(before);
  },
  180_000,
);

test('a request the table allows never answers 5xx, whatever its method', async () => {
  const crashed: string[] = [];
  for (const path of concretePaths()) {
    await Promise.all(METHODS.flatMap((method) =>
      CREDENTIALS.map(async (credential) => {
        if (!allowed(method, path, credential) || credential === 'manage') return;
        const res = await send(method, path, credential);
        if (res.status >= 500) crashed.push(`${method} ${path} as ${credential}: ${res.status}`);
      })
    ));
  }
  expect(crashed).toEqual([]);
}, 180_000);

describe('HEAD', () => {
  it('with a VIEW token does not create a KYC link (a MANAGE operation): 403, as the GET', async () => {
    const head = await send('HEAD', `/2025-10-13/customers/kyc-link?platformCustomerId=walk-1`, 'view');
    const get = await send('GET', `/2025-10-13/customers/kyc-link?platformCustomerId=walk-1`, 'view');
    expect({ head: head.status, get: get.status, code: get.code }).toEqual({ head: 403, get: 403, code: 'FORBIDDEN' });
  });

  it('with a VIEW token does not reveal which token ids exist', async () => {
    const known = await send('HEAD', `/2025-10-13/tokens/${tokenId}`, 'view');
    const unknown = await send('HEAD', '/2025-10-13/tokens/Token:00000000-0000-0000-0000-000000000000', 'view');
    expect([known.status, unknown.status]).toEqual([403, 403]);
  });

  it('answers as the GET of its path, without a body, where the token may GET', async () => {
    const res = await fetch(`${sys.baseUrl}/customers/${customerId}`, {
      method: 'HEAD',
      headers: { authorization: view },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });

  it('where no GET is served answers 405 with the methods that are', async () => {
    const head = await send('HEAD', '/2025-10-13/transfer-out', 'manage');
    expect({ status: head.status, allow: head.allow }).toEqual({ status: 405, allow: 'POST' });
    const put = await send('PUT', '/2025-10-13/quotes', 'manage');
    expect(put).toEqual({ status: 405, code: 'METHOD_NOT_ALLOWED', allow: 'GET, HEAD, POST' });
  });
});
