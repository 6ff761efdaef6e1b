import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { basicAuthHeader, startTestSystem, type TestSystem } from '../system-harness';

let sys: TestSystem;
beforeAll(async () => {
  sys = await startTestSystem();
});
afterAll(async () => {
  await sys.stop();
});

function expectEnvelope(res: { status: number; body: any }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ status, code });
  expect(typeof res.body.message).toBe('string');
}

describe('liveness and readiness', () => {
  test('GET /healthz and GET /livez answer 200 without credentials', async () => {
    for (const path of ['/healthz', '/livez']) {
      const res = await fetch(`${sys.rootUrl}${path}`);
      expect({ path, status: res.status, body: await res.json() }).toEqual({
        path,
        status: 200,
        body: { status: 'ok' },
      });
    }
  });
  test(
    'GET /readyz answers 200 once the credentials authenticate and '
      + 'every service passes its gRPC health check, naming each dependency',
    async () => {
      const res = await fetch(`${sys.rootUrl}/readyz`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        status: 'ready',
        dependencies: {
          accounts: 'ok',
          auth: 'ok',
          credentials: 'ok',
          notifications: 'ok',
          'quotes-transactions': 'ok',
        },
      });
    },
  );
});

describe('HTTP Basic authentication', () => {
  test('missing credentials: 401 UNAUTHORIZED with WWW-Authenticate', async () => {
    const res = await sys.api('/customers', { auth: false });
    expectEnvelope(res, 401, 'UNAUTHORIZED');
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
  });
  test('wrong secret: 401', async () => {
    const res = await sys.api('/customers', {
      auth: basicAuthHeader(sys.sandbox.tokenId, 'wrong-secret-wrong-secret'),
    });
    expectEnvelope(res, 401, 'UNAUTHORIZED');
  });
  test('unknown token id: 401', async () => {
    const res = await sys.api('/customers', { auth: basicAuthHeader('no-such-token', sys.sandbox.clientSecret) });
    expectEnvelope(res, 401, 'UNAUTHORIZED');
  });
  test('a Bearer header where Basic is required: 401', async () => {
    const res = await sys.api('/customers', { auth: 'Bearer abc' });
    expectEnvelope(res, 401, 'UNAUTHORIZED');
  });
  test('garbage base64: 401', async () => {
    const res = await sys.api('/customers', { auth: 'Basic %%%' });
    expectEnvelope(res, 401, 'UNAUTHORIZED');
  });
});

describe('error envelope', () => {
  test('unknown route: 404 envelope', async () => {
    expectEnvelope(await sys.api('/no-such-thing'), 404, 'NOT_FOUND');
  });
  test('route outside the version segment: 404 envelope', async () => {
    const res = await fetch(`${sys.rootUrl}/2024-01-01/customers`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { code: string }).code).toBe('NOT_FOUND');
  });
  test('malformed JSON: 400 INVALID_INPUT naming the problem', async () => {
    const res = await sys.api('/customers', {
      method: 'POST',
      body: '{"a":',
      headers: { 'content-type': 'application/json' },
    });
    expectEnvelope(res, 400, 'INVALID_INPUT');
    expect(res.body.message).toMatch(/Malformed JSON/);
  });
  test(
    'content types are decided per route: a multipart call to '
      + 'a route that does not exist is 404, to a JSON route 400',
    async () => {
      const form = new FormData();
      form.append('file', new Blob(['%PDF-1.4']), 'a.pdf');
      const missing = await sys.api('/documents-that-do-not-exist', { method: 'POST', body: form });
      expectEnvelope(missing, 404, 'NOT_FOUND');
      const json = await sys.api('/customers', { method: 'POST', body: form });
      expectEnvelope(json, 400, 'INVALID_INPUT');
      expect(json.body.message).toMatch(/Content-Type must be application\/json, got "multipart\/form-data/);
    },
  );
  test('wrong content type: 400 INVALID_INPUT', async () => {
    const res = await sys.api('/customers', {
      method: 'POST',
      body: 'a=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectEnvelope(res, 400, 'INVALID_INPUT');
    expect(res.body.message).toMatch(/Content-Type/);
  });
  test('oversized body: 400 INVALID_INPUT', async () => {
    const big = JSON.stringify({ fullName: 'x'.repeat(2 * 1024 * 1024) });
    const res = await sys.api('/customers', {
      method: 'POST',
      body: big,
      headers: { 'content-type': 'application/json' },
    });
    expectEnvelope(res, 400, 'INVALID_INPUT');
  });
  test('malformed percent-encoding in the path: 400, not 500', async () => {
    const res = await sys.api('/customers/%E0%A4%A');
    expect(res.status).toBeLessThan(500);
  });
  test('every response carries X-Correlation-Id, echoed when the client sends a safe one', async () => {
    const generated = await sys.api('/no-such-thing');
    expect(generated.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await sys.api('/no-such-thing', { headers: { 'x-correlation-id': 'abc-123' } });
    expect(echoed.headers.get('x-correlation-id')).toBe('abc-123');
  });
  test("the same id as request-id, the header Grid's SDK reports as err.requestID: on errors and success", async () => {
    const failed = await sys.api('/customers/Customer:00000000-0000-4000-8000-000000000000');
    expect(failed.status).toBe(404);
    expect(failed.headers.get('request-id')).toBe(failed.headers.get('x-correlation-id'));
    const ok = await sys.api('/customers', { headers: { 'x-correlation-id': 'ticket-42' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('request-id')).toBe('ticket-42');
  });
});

describe('compression', () => {
  /** A raw GET (fetch would ask for and undo the compression itself). */
  function rawGet(
    path: string,
    headers: Record<string, string>,
  ): Promise<{ headers: Record<string, unknown>; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const auth = basicAuthHeader(sys.sandbox.tokenId, sys.sandbox.clientSecret);
      request(`${sys.rootUrl}${path}`, { headers: { authorization: auth, ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      }).on('error', reject).end();
    });
  }

  test('a large answer is gzipped when Accept-Encoding offers it, and sent as it is otherwise', async () => {
    const zipped = await rawGet('/2025-10-13/exchange-rates', { 'accept-encoding': 'gzip' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    const json = JSON.parse(gunzipSync(zipped.body).toString('utf8'));
    expect(json.data.length).toBeGreaterThan(10);
    const plain = await rawGet('/2025-10-13/exchange-rates', {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.body.toString('utf8'))).toEqual(json);
    expect(zipped.body.length * 5).toBeLessThan(plain.body.length);
  });

  test('an answer under 1 KB is not compressed', async () => {
    const small = await rawGet('/healthz', { 'accept-encoding': 'gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString('utf8'))).toEqual({ status: 'ok' });
  });
});
