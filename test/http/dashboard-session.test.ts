import { request } from 'node:http';
import { startTestSystem, type TestSystem } from '../system-harness';

/**
 * The dashboard's session, over HTTP: sign-in turns an API token into an HttpOnly, SameSite=Strict
 * cookie; the cookie is a credential on the API only with the session's CSRF token for writes; the
 * permission table still decides; sign-out ends the session for whoever holds the cookie.
 */
let sys: TestSystem;
beforeAll(async () => {
  sys = await startTestSystem({ components: ['gateway', 'auth', 'accounts'] });
}, 120_000);
afterAll(() => sys?.stop());

const signInRaw = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${sys.rootUrl}/dashboard/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

async function signIn(tokenId = sys.sandbox.tokenId, clientSecret = sys.sandbox.clientSecret) {
  const res = await signInRaw({ tokenId, clientSecret });
  expect(res.status).toBe(201);
  const setCookie = res.headers.get('set-cookie')!;
  const cookie = setCookie.split(';')[0];
  return {
    res,
    setCookie,
    cookie,
    session: (await res.json()) as { csrfToken: string; permissions: string[]; operations: string[]; sandbox: boolean },
  };
}

const withCookie = (path: string, cookie: string, init: RequestInit = {}) =>
  fetch(`${sys.baseUrl}${path}`, { ...init, headers: { cookie, ...(init.headers as Record<string, string>) } });

test(
  'sign-in answers a session cookie: HttpOnly, SameSite=Strict, '
    + 'path /, with an expiry; nothing secret in the answer',
  async () => {
    const { setCookie, session, res } = await signIn();
    expect(setCookie).toMatch(
      /^grid_dashboard_session=[A-Za-z0-9_-]{43}; Max-Age=\d+; Path=\/; Expires=.+; HttpOnly; SameSite=Strict$/,
    );
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = JSON.stringify(session);
    expect(text).not.toContain(sys.sandbox.clientSecret);
    expect(session.permissions).toEqual(expect.arrayContaining(['VIEW']));
    expect(session.operations).toContain('listTransactions');
    expect(session.sandbox).toBe(true);
  },
);

test('outside localhost the cookie is Secure as well', async () => {
  const body = JSON.stringify({ tokenId: sys.sandbox.tokenId, clientSecret: sys.sandbox.clientSecret });
  const { port } = new URL(sys.rootUrl);
  const setCookie = await new Promise<string>((done, fail) => {
    const req = request({
      host: '127.0.0.1',
      port,
      path: '/dashboard/session',
      method: 'POST',
      headers: {
        host: 'payments.example.com',
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      },
    }, (res) => {
      res.resume();
      done(String(res.headers['set-cookie']));
    });
    req.on('error', fail);
    req.end(body);
  });
  expect(setCookie).toMatch(/; Secure; SameSite=Strict$/);
});

test('a wrong secret, a bad body, a form post or another origin are refused, each in the error envelope', async () => {
  const wrong = await signInRaw({ tokenId: sys.sandbox.tokenId, clientSecret: 'not-the-secret' });
  expect(wrong.status).toBe(401);
  expect(wrong.headers.get('set-cookie')).toBeNull();
  const bad = await signInRaw({ tokenId: '', clientSecret: 7 });
  expect(bad.status).toBe(400);
  expect(((await bad.json()) as any).details.errors.map((e: { field: string }) => e.field)).toEqual([
    'tokenId',
    'clientSecret',
  ]);
  const form = await fetch(`${sys.rootUrl}/dashboard/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ tokenId: sys.sandbox.tokenId, clientSecret: sys.sandbox.clientSecret }).toString(),
  });
  expect(form.status).toBe(400);
  const elsewhere = await signInRaw({ tokenId: sys.sandbox.tokenId, clientSecret: sys.sandbox.clientSecret }, {
    origin: 'https://evil.example',
  });
  expect(elsewhere.status).toBe(403);
  expect(elsewhere.headers.get('set-cookie')).toBeNull();
});

test('the cookie reads the API; a write needs the CSRF token; sign-out ends it for stolen copies too', async () => {
  const { cookie, session } = await signIn();
  expect((await withCookie('/customers', cookie)).status).toBe(200);
  const create = (headers: Record<string, string>) =>
    withCookie('/customers', cookie, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ customerType: 'INDIVIDUAL', platformCustomerId: `dash-${Date.now()}-${Math.random()}` }),
    });
  const noToken = await create({});
  expect(noToken.status).toBe(403);
  expect(((await noToken.json()) as any).code).toBe('FORBIDDEN');
  expect((await create({ 'x-csrf-token': 'x'.repeat(43) })).status).toBe(403);
  expect((await create({ 'x-csrf-token': session.csrfToken })).status).toBe(201);

  const signOutWithout = await fetch(`${sys.rootUrl}/dashboard/session`, { method: 'DELETE', headers: { cookie } });
  expect(signOutWithout.status).toBe(403);
  const out = await fetch(`${sys.rootUrl}/dashboard/session`, {
    method: 'DELETE',
    headers: { cookie, 'x-csrf-token': session.csrfToken },
  });
  expect(out.status).toBe(204);
  expect(out.headers.get('set-cookie')).toMatch(/^grid_dashboard_session=; Path=\/; Expires=Thu, 01 Jan 1970/);
  // The cookie kept by someone else after sign-out: refused everywhere.
  expect((await withCookie('/customers', cookie)).status).toBe(401);
  expect((await fetch(`${sys.rootUrl}/dashboard/session`, { headers: { cookie } })).status).toBe(401);
  expect((await create({ 'x-csrf-token': session.csrfToken })).status).toBe(401);
});

test("a VIEW token's session lists no write operation and the API refuses its writes", async () => {
  const token = await sys.api('/tokens', { method: 'POST', json: { name: 'dashboard viewer', permissions: ['VIEW'] } });
  expect(token.status).toBe(201);
  const { cookie, session } = await signIn(token.body.clientId, token.body.clientSecret);
  expect(session.permissions).toEqual(['VIEW']);
  expect(session.operations).toContain('listCustomers');
  expect(session.operations).not.toContain('createCustomer');
  expect(session.operations).not.toContain('createToken');
  const write = await withCookie('/customers', cookie, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken },
    body: JSON.stringify({ customerType: 'INDIVIDUAL', platformCustomerId: 'viewer-write' }),
  });
  expect(write.status).toBe(403);
  expect(((await write.json()) as any).details.requiredPermission).toBe('MANAGE');

  // Revoking the token ends what its session can do at once.
  expect((await sys.api(`/tokens/${token.body.id}`, { method: 'DELETE' })).status).toBe(204);
  expect((await withCookie('/customers', cookie)).status).toBe(401);
});

test('signing in again from the same browser ends its previous session', async () => {
  const first = await signIn();
  const again = await fetch(`${sys.rootUrl}/dashboard/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: first.cookie },
    body: JSON.stringify({ tokenId: sys.sandbox.tokenId, clientSecret: sys.sandbox.clientSecret }),
  });
  expect(again.status).toBe(201);
  const second = again.headers.get('set-cookie')!.split(';')[0];
  expect(second).not.toBe(first.cookie);
  expect((await withCookie('/customers', first.cookie)).status).toBe(401);
  expect((await withCookie('/customers', second)).status).toBe(200);
});

test('an unknown or malformed cookie is refused, never ignored; the Authorization header beats a cookie', async () => {
  expect((await withCookie('/customers', 'grid_dashboard_session=' + 'A'.repeat(43))).status).toBe(401);
  expect((await withCookie('/customers', 'grid_dashboard_session=<script>')).status).toBe(401);
  const res = await fetch(`${sys.baseUrl}/customers`, {
    headers: {
      cookie: 'grid_dashboard_session=nope',
      authorization: `Basic ${Buffer.from(`${sys.sandbox.tokenId}:${sys.sandbox.clientSecret}`).toString('base64')}`,
    },
  });
  expect(res.status).toBe(200);
});

test("dashboard pages forbid framing and load only the gateway's own scripts", async () => {
  const res = await fetch(`${sys.rootUrl}/dashboard/transactions`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(await res.text()).toContain('<div id="app"></div>');
  expect((await fetch(`${sys.rootUrl}/dashboard/assets/nothing.js`)).status).toBe(404);
  expect((await fetch(`${sys.rootUrl}/dashboard/session`, { method: 'PUT' })).status).toBe(405);
});
