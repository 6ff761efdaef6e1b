import { startGateway, type RunningGateway } from '../../gateway/gateway-server';
import { API_VERSION } from '../../gateway/gateway-app';
import { silentLogger } from '../../lib/log';
import { INDIVIDUAL_CUSTOMER } from '../../services/accounts/test-fixtures/request-bodies';
import { basicAuthHeader, startTestSystem, type TestSystem } from '../system-harness';
import { accountQuote, expectError, payingCustomer } from './payments-fixtures';

let sys: TestSystem;
beforeAll(async () => {
  sys = await startTestSystem();
});
afterAll(async () => {
  await sys.stop();
});

type Token = { id: string; clientId: string; clientSecret: string; permissions: string[]; auth: string };

let seq = 0;
async function newToken(permissions: string[], auth?: string): Promise<Token> {
  const res = await sys.api('/tokens', {
    method: 'POST',
    json: { name: `token ${seq++}`, permissions },
    ...(auth ? { auth } : {}),
  });
  expect(res.status).toBe(201);
  return { ...res.body, auth: basicAuthHeader(res.body.clientId, res.body.clientSecret) };
}

describe('creating, reading, listing and deleting tokens', () => {
  test('the secret is answered once, at creation; the new token authenticates with it', async () => {
    const token = await newToken(['VIEW']);
    expect(token).toMatchObject({
      id: expect.stringMatching(/^Token:/),
      name: expect.any(String),
      permissions: ['VIEW'],
      clientId: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    expect(token.clientSecret.length).toBeGreaterThanOrEqual(32);
    const read = await sys.api(`/tokens/${token.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      id: token.id,
      name: expect.any(String),
      permissions: ['VIEW'],
      clientId: token.clientId,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const listed = await sys.api('/tokens?limit=100');
    expect(JSON.stringify(listed.body)).not.toContain(token.clientSecret);
    expect((await sys.api('/customers', { auth: token.auth })).status).toBe(200);
  });

  test('the sandbox token is listed with every permission', async () => {
    const listed = await sys.api(`/tokens?name=${encodeURIComponent('Sandbox token')}`);
    expect(listed.body.data).toEqual([
      expect.objectContaining({ clientId: sys.sandbox.tokenId, permissions: ['VIEW', 'TRANSACT', 'MANAGE'] }),
    ]);
  });

  test('the list filters by name and time and is walked page by page, newest first', async () => {
    const before = new Date().toISOString();
    const made = [await newToken(['VIEW']), await newToken(['TRANSACT']), await newToken(['MANAGE'])];
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await sys.api(`/tokens?limit=1&createdAfter=${before}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.body.totalCount).toBe(3);
      seen.push(...page.body.data.map((t: { id: string }) => t.id));
      cursor = page.body.hasMore ? page.body.nextCursor : undefined;
    } while (cursor);
    expect(seen).toEqual(made.map((t) => t.id).reverse());
    const named = await sys.api('/tokens', { method: 'POST', json: { name: 'nightly export', permissions: ['VIEW'] } });
    const byName = await sys.api(`/tokens?name=${encodeURIComponent('nightly export')}`);
    expect(byName.body.data.map((t: { id: string }) => t.id)).toEqual([named.body.id]);
    expect((await sys.api(`/tokens?createdBefore=${before}&updatedAfter=${before}`)).body.data).toEqual([]);
    expectError(await sys.api('/tokens?createdAfter=yesterday'), 400, 'INVALID_INPUT');
    expectError(await sys.api('/tokens?cursor=garbage'), 400, 'INVALID_INPUT');
  });

  test('invalid create requests list every problem', async () => {
    const res = await sys.api('/tokens', { method: 'POST', json: { permissions: ['ADMIN'] } });
    expectError(res, 400, 'INVALID_INPUT');
    expect(res.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(['name', 'permissions[0]']);
    expectError(
      await sys.api('/tokens', { method: 'POST', json: { name: 'x', permissions: [] } }),
      400,
      'INVALID_INPUT',
    );
  });

  test("unknown, deleted and other platforms' tokens are TOKEN_NOT_FOUND", async () => {
    expectError(await sys.api('/tokens/Token:00000000-0000-4000-8000-000000000000'), 404, 'TOKEN_NOT_FOUND');
    expectError(await sys.api('/tokens/not-a-token', { method: 'DELETE' }), 404, 'TOKEN_NOT_FOUND');
    const token = await newToken(['VIEW']);
    const other = await sys.createPlatform();
    expectError(await sys.api(`/tokens/${token.id}`, { auth: other.auth }), 404, 'TOKEN_NOT_FOUND');
    expectError(await sys.api(`/tokens/${token.id}`, { method: 'DELETE', auth: other.auth }), 404, 'TOKEN_NOT_FOUND');
    expect((await sys.api(`/tokens/${token.id}`, { method: 'DELETE' })).status).toBe(204);
    expectError(await sys.api(`/tokens/${token.id}`), 404, 'TOKEN_NOT_FOUND');
    expectError(await sys.api(`/tokens/${token.id}`, { method: 'DELETE' }), 404, 'TOKEN_NOT_FOUND');
  });

  test('a deleted token is refused on its very next call, though it was just cached', async () => {
    const token = await newToken(['VIEW']);
    expect((await sys.api('/customers', { auth: token.auth })).status).toBe(200);
    expect((await sys.api(`/tokens/${token.id}`, { method: 'DELETE' })).status).toBe(204);
    expectError(await sys.api('/customers', { auth: token.auth }), 401, 'UNAUTHORIZED');
  });

  test("a token may delete itself unless it is the platform's last MANAGE token (409 CONFLICT)", async () => {
    const platform = await sys.createPlatform();
    const admin = await newToken(['MANAGE'], platform.auth);
    const sandboxLike = (await sys.api('/tokens', { auth: admin.auth })).body.data.find((t: { id: string }) =>
      t.id !== admin.id
    );
    expect((await sys.api(`/tokens/${sandboxLike.id}`, { method: 'DELETE', auth: admin.auth })).status).toBe(204);
    const refused = await sys.api(`/tokens/${admin.id}`, { method: 'DELETE', auth: admin.auth });
    expectError(refused, 409, 'CONFLICT');
    expect(refused.body.details).toMatchObject({ reason: 'LAST_MANAGE_TOKEN' });
    const second = await newToken(['MANAGE'], admin.auth);
    expect((await sys.api(`/tokens/${admin.id}`, { method: 'DELETE', auth: admin.auth })).status).toBe(204);
    expectError(await sys.api('/tokens', { auth: admin.auth }), 401, 'UNAUTHORIZED');
    expect((await sys.api('/tokens', { auth: second.auth })).body.data.map((t: { id: string }) => t.id)).toEqual([
      second.id,
    ]);
  });
});

describe('permissions, enforced on every route group', () => {
  let view: Token, transact: Token, manage: Token;
  let payer: Awaited<ReturnType<typeof payingCustomer>>;
  beforeAll(async () => {
    [view, transact, manage] = [await newToken(['VIEW']), await newToken(['TRANSACT']), await newToken(['MANAGE'])];
    payer = await payingCustomer(sys);
  });

  const call = (token: Token, method: string, path: string, json?: unknown) =>
    sys.api(path, { method, auth: token.auth, ...(json === undefined ? {} : { json }) });
  const forbidden = (res: { status: number; body: any }, required: string) => {
    expectError(res, 403, 'FORBIDDEN');
    expect(res.body.details).toMatchObject({ requiredPermission: required });
  };

  const reads = () =>
    [
      ['GET', '/config'],
      ['GET', '/customers'],
      ['GET', `/customers/${payer.customerId}`],
      ['GET', `/customers/internal-accounts?customerId=${payer.customerId}`],
      ['GET', '/customers/external-accounts'],
      ['GET', '/transactions'],
      ['GET', '/quotes'],
      ['GET', '/exchange-rates'],
      ['GET', '/webhooks/deliveries'],
      ['GET', '/auth/enclave-public-key'],
      ['GET', '/platform/internal-accounts'],
      ['GET', '/uma-providers'],
      ['GET', '/discoveries'],
    ] as const;
  /** A read by POST: answered (here 404 for an unknown account), never refused. */
  const estimate = (token: Token) =>
    call(token, 'POST', '/crypto/estimate-withdrawal-fee', {
      internalAccountId: 'InternalAccount:00000000-0000-4000-8000-000000000000',
      currency: 'USDC',
      cryptoNetwork: 'SOLANA',
      amount: 1_000_000,
      destinationAddress: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV',
    });

  test('VIEW reads every group but cannot pay or configure', async () => {
    for (const [method, path] of reads()) {
      expect([method, path, (await call(view, method, path)).status]).toEqual([method, path, 200]);
    }
    forbidden(
      await call(view, 'POST', '/quotes', accountQuote(payer.usdAccountId, payer.usdAccountId, 100)),
      'TRANSACT',
    );
    forbidden(
      await call(view, 'POST', `/sandbox/internal-accounts/${payer.usdAccountId}/fund`, { amount: 100 }),
      'TRANSACT',
    );
    forbidden(await call(view, 'POST', '/transfer-out', {}), 'TRANSACT');
    forbidden(await call(view, 'PATCH', '/config', { umaDomain: 'view.example.com' }), 'MANAGE');
    forbidden(
      await call(view, 'POST', '/customers', { ...INDIVIDUAL_CUSTOMER, platformCustomerId: 'by-view' }),
      'MANAGE',
    );
    forbidden(await call(view, 'POST', '/tokens', { name: 'escalate', permissions: ['MANAGE'] }), 'MANAGE');
    forbidden(await call(view, 'GET', '/tokens'), 'MANAGE');
    forbidden(await call(view, 'POST', '/sandbox/webhooks/test'), 'MANAGE');
    forbidden(await call(view, 'POST', '/invitations', { inviterUma: payer.customer.umaAddress }), 'TRANSACT');
    forbidden(await call(view, 'POST', '/invitations/abc/claim', { inviteeUma: '$a@b.example' }), 'TRANSACT');
    forbidden(
      await call(view, 'POST', '/auth/credentials/AuthMethod:00000000-0000-4000-8000-000000000000/verify', {}),
      'TRANSACT',
    );
    expectError(await estimate(view), 404, 'REFERENCE_NOT_FOUND');
    expectError(await call(view, 'GET', '/invitations/000000000000'), 404, 'INVITATION_NOT_FOUND');
  });

  test('TRANSACT reads and pays, but cannot configure or manage tokens and customers', async () => {
    for (const [method, path] of reads()) {
      expect([method, path, (await call(transact, method, path)).status]).toEqual([method, path, 200]);
    }
    expect(
      (await call(transact, 'POST', `/sandbox/internal-accounts/${payer.usdAccountId}/fund`, { amount: 10_000 }))
        .status,
    ).toBe(200);
    const quote = await call(transact, 'POST', '/quotes', accountQuote(payer.usdAccountId, payer.usdAccountId, 100));
    expect(quote.status).not.toBe(403);
    forbidden(await call(transact, 'PATCH', '/config', { umaDomain: 'transact.example.com' }), 'MANAGE');
    forbidden(
      await call(transact, 'POST', '/customers', { ...INDIVIDUAL_CUSTOMER, platformCustomerId: 'by-transact' }),
      'MANAGE',
    );
    forbidden(
      await call(transact, 'PATCH', `/customers/${payer.customerId}`, { customerType: 'INDIVIDUAL', fullName: 'X' }),
      'MANAGE',
    );
    forbidden(await call(transact, 'POST', '/customers/external-accounts', {}), 'MANAGE');
    forbidden(await call(transact, 'DELETE', `/tokens/${view.id}`), 'MANAGE');
    forbidden(await call(transact, 'POST', '/auth/credentials', {}), 'MANAGE');
    expectError(
      await call(transact, 'POST', '/invitations/000000000000/claim', { inviteeUma: '$a@b.example' }),
      404,
      'INVITATION_NOT_FOUND',
    );
    expectError(await estimate(transact), 404, 'REFERENCE_NOT_FOUND');
  });

  test('MANAGE reads and configures, but cannot pay', async () => {
    for (const [method, path] of reads()) {
      expect([method, path, (await call(manage, method, path)).status]).toEqual([method, path, 200]);
    }
    expect((await call(manage, 'PATCH', '/config', { umaDomain: 'manage.example.com' })).status).toBe(200);
    expect(
      (await call(manage, 'POST', '/customers', { ...INDIVIDUAL_CUSTOMER, platformCustomerId: 'by-manage' })).status,
    ).toBe(201);
    expect((await call(manage, 'POST', '/tokens', { name: 'made by manage', permissions: ['VIEW'] })).status).toBe(201);
    forbidden(
      await call(manage, 'POST', '/quotes', accountQuote(payer.usdAccountId, payer.usdAccountId, 100)),
      'TRANSACT',
    );
    forbidden(
      await call(manage, 'POST', `/sandbox/internal-accounts/${payer.usdAccountId}/fund`, { amount: 100 }),
      'TRANSACT',
    );
    forbidden(
      await call(manage, 'POST', '/transactions/Transaction:00000000-0000-4000-8000-000000000000/cancel'),
      'TRANSACT',
    );
    forbidden(await call(manage, 'POST', '/invitations/000000000000/cancel'), 'TRANSACT');
    expectError(await estimate(manage), 404, 'REFERENCE_NOT_FOUND');
  });

  test('a refused request changes nothing', async () => {
    const before = (await sys.api('/config')).body.umaDomain;
    forbidden(await call(view, 'PATCH', '/config', { umaDomain: 'never.example.com' }), 'MANAGE');
    expect((await sys.api('/config')).body.umaDomain).toBe(before);
  });
});

describe('several gateway replicas', () => {
  let second: RunningGateway;
  beforeAll(async () => {
    second = await startGateway({
      host: '127.0.0.1',
      port: 0,
      peers: sys.system.peers,
      serviceAddresses: [],
      logger: silentLogger,
      bus: sys.system.bus,
    });
  });
  afterAll(async () => {
    await second.stop();
  });

  test('a token deleted through one gateway is refused by another within moments, not after a cache TTL', async () => {
    const token = await newToken(['VIEW']);
    const viaSecond = () =>
      fetch(`http://127.0.0.1:${second.port}/${API_VERSION}/customers`, { headers: { authorization: token.auth } });
    expect((await viaSecond()).status).toBe(200);
    expect((await sys.api(`/tokens/${token.id}`, { method: 'DELETE' })).status).toBe(204);
    const deadline = Date.now() + 5_000;
    let status = 200;
    while (Date.now() < deadline && (status = (await viaSecond()).status) === 200) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(401);
  });
});
