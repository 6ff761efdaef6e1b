import { connect, createServer, type Socket } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { basicAuthHeader, startTestSystem, type TestSystem } from '../system-harness';

/** What reaches the gateway before any route: bodies, headers, framing, slow clients, guessed secrets. */
let sys: TestSystem;
beforeAll(async () => {
  sys = await startTestSystem({
    env: {
      GATEWAY_REQUEST_TIMEOUT_MS: '1500',
      GATEWAY_HEADERS_TIMEOUT_MS: '1500',
      GATEWAY_MAX_CONNECTIONS: '40',
      GATEWAY_AUTH_FAILURES_PER_TOKEN: '3',
      GATEWAY_AUTH_FAILURES_PER_ADDRESS: '1000',
    },
  });
});
afterAll(() => sys.stop());

const customer = (id: string) => ({ customerType: 'INDIVIDUAL', platformCustomerId: id, fullName: 'Edge Case' });
const nested = (depth: number, wrap: (inner: unknown) => unknown) => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = wrap(value);
  return value;
};

function expectEnvelope(res: { status: number; body: any }, status: number, code: string) {
  expect({ status: res.status, code: res.body?.code, envelopeStatus: res.body?.status }).toEqual({
    status,
    code,
    envelopeStatus: status,
  });
}

/** Sends raw bytes on a new connection and answers the status line and body the server wrote back. */
function raw(
  port: number,
  request: string,
  options: { keepOpenMs?: number } = {},
): Promise<{ status: number; body: any; elapsedMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk.toString('utf8');
    });
    socket.on('error', reject);
    socket.on('close', () => {
      // The last response on the connection (a route may have answered before the parser gave up).
      const last = data.slice(data.lastIndexOf('HTTP/1.1 '));
      const [head, body = ''] = last.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      let parsed: unknown;
      try {
        parsed = body ? JSON.parse(body) : undefined;
      } catch {
        parsed = body;
      }
      resolve({ status, body: parsed, elapsedMs: Date.now() - started });
    });
    if (options.keepOpenMs) setTimeout(() => socket.destroy(), options.keepOpenMs);
  });
}

describe('bodies', () => {
  it.each([
    ['objects', (inner: unknown) => ({ a: inner })],
    ['arrays', (inner: unknown) => [inner]],
  ])('JSON nested 49 levels deep in %s answers 400 INVALID_INPUT, in any member', async (_kind, wrap) => {
    const res = await sys.api('/customers', {
      method: 'POST',
      json: { ...customer('deep'), address: nested(49, wrap) },
    });
    expectEnvelope(res, 400, 'INVALID_INPUT');
    expect(res.body.message).toMatch('32 levels');
    const quote = await sys.api('/quotes', { method: 'POST', json: { source: nested(60, wrap) } });
    expectEnvelope(quote, 400, 'INVALID_INPUT');
  });

  it('JSON within the depth limit reaches the route', async () => {
    const res = await sys.api('/customers', {
      method: 'POST',
      json: { ...customer('shallow'), extra: nested(30, (inner) => ({ a: inner })) },
    });
    expect(res.status).toBe(201);
  });

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ])('a %s body is read when it decompresses and refused with 400 when it does not', async (encoding, compress) => {
    const good = await sys.api('/customers', {
      method: 'POST',
      body: compress(Buffer.from(JSON.stringify(customer(`zip-${encoding}`)))),
      headers: { 'content-type': 'application/json', 'content-encoding': encoding },
    });
    expect(good.status).toBe(201);
    const bad = await sys.api('/customers', {
      method: 'POST',
      body: 'not compressed at all',
      headers: { 'content-type': 'application/json', 'content-encoding': encoding },
    });
    expectEnvelope(bad, 400, 'INVALID_INPUT');
    const truncated = compress(Buffer.from(JSON.stringify(customer('cut'))));
    const cut = await sys.api('/customers', {
      method: 'POST',
      body: truncated.subarray(0, truncated.length - 4),
      headers: { 'content-type': 'application/json', 'content-encoding': encoding },
    });
    expectEnvelope(cut, 400, 'INVALID_INPUT');
  });

  it('a body with thousands of invalid members answers 400 at once, listing 100 and counting the rest', async () => {
    const res = await sys.api('/config', {
      method: 'PATCH',
      json: { feeConfigs: Array.from({ length: 5_000 }, (_, i) => i) },
    });
    expectEnvelope(res, 400, 'INVALID_INPUT');
    expect(res.body.details.errors).toHaveLength(100);
    expect(res.body.details.errors[0]).toEqual(expect.objectContaining({ field: 'feeConfigs[0]' }));
    expect(res.body.details.omittedErrors).toBe(4_900);
    // The service that answered it still answers the next call at once.
    expect((await sys.api('/customers/end-user-terms')).status).toBe(200);
  });

  it('an unknown Content-Encoding answers 400', async () => {
    const res = await sys.api('/customers', {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json', 'content-encoding': 'compress' },
    });
    expectEnvelope(res, 400, 'INVALID_INPUT');
  });
});

describe('what Node refuses before any route', () => {
  const port = () => sys.system.gateway!.port;

  it('oversized headers answer 431 in the envelope', async () => {
    const res = await sys.api('/customers', { headers: { 'x-padding': 'a'.repeat(20_000) } });
    expectEnvelope(res, 431, 'REQUEST_HEADERS_TOO_LARGE');
  });

  it.each([
    [
      'a Content-Length that is not a number',
      'POST /2025-10-13/customers HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
    ],
    [
      'both Content-Length and chunked',
      'POST /2025-10-13/customers HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n',
    ],
    ['a broken request line', 'GARBAGE\r\n\r\n'],
    ['a header without a colon', 'GET /healthz HTTP/1.1\r\nHost x\r\n\r\n'],
  ])('malformed framing (%s) answers 400 in the envelope', async (_name, request) => {
    const res = await raw(port(), request);
    expect({ status: res.status, code: res.body?.code }).toEqual({ status: 400, code: 'INVALID_INPUT' });
  });

  it('a body that arrives too slowly is answered 408 once the request timeout passes', async () => {
    const auth = basicAuthHeader(sys.sandbox.tokenId, sys.sandbox.clientSecret);
    const res = await raw(
      port(),
      `POST /2025-10-13/customers HTTP/1.1\r\nHost: x\r\nAuthorization: `
        + `${auth}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"cust`,
      { keepOpenMs: 20_000 },
    );
    expect({ status: res.status, code: res.body?.code }).toEqual({ status: 408, code: 'REQUEST_TIMEOUT' });
    // Enforced by the configured 1.5 s (checked every second), not left to a default of minutes.
    expect(res.elapsedMs).toBeLessThan(10_000);
  });

  it('headers that never finish are answered 408 too', async () => {
    const res = await raw(port(), 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ', { keepOpenMs: 20_000 });
    expect({ status: res.status, code: res.body?.code }).toEqual({ status: 408, code: 'REQUEST_TIMEOUT' });
    expect(res.elapsedMs).toBeLessThan(10_000);
  });

  it('connections beyond the cap are closed as they arrive; the gateway goes on serving', async () => {
    const open: Socket[] = [];
    for (let i = 0; i < 40; i++) {
      open.push(
        await new Promise<Socket>((resolve) => {
          const s = connect(port(), '127.0.0.1', () => resolve(s));
        }),
      );
    }
    const refused = await new Promise<boolean>((resolve) => {
      const s = connect(port(), '127.0.0.1');
      s.on('close', () => resolve(true));
      s.on('error', () => resolve(true));
      setTimeout(() => {
        s.destroy();
        resolve(false);
      }, 3_000);
    });
    expect(refused).toBe(true);
    open.forEach((s) => s.destroy());
    await new Promise((r) => setTimeout(r, 100));
    expect((await sys.api('/customers?limit=1')).status).toBe(200);
  });
});

describe('failed authentication', () => {
  it('is throttled per token id with 429 and Retry-After, without slowing other tokens', async () => {
    const wrong = basicAuthHeader('guessed-token', 'not-the-secret-000000');
    for (let i = 0; i < 3; i++) expectEnvelope(await sys.api('/customers', { auth: wrong }), 401, 'UNAUTHORIZED');
    const throttled = await sys.api('/customers', { auth: wrong });
    expectEnvelope(throttled, 429, 'RATE_LIMITED');
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another token id is not slowed, and the platform's own token keeps working.
    expectEnvelope(
      await sys.api('/customers', { auth: basicAuthHeader('another-token', 'not-the-secret-000000') }),
      401,
      'UNAUTHORIZED',
    );
    expect((await sys.api('/customers?limit=1')).status).toBe(200);
  });

  it("guessing at a known token id does not lock out its owner while the owner's credentials are known", async () => {
    const other = await sys.createPlatform();
    expect((await sys.api('/customers?limit=1', { auth: other.auth })).status).toBe(200);
    const [tokenId] = Buffer.from(other.auth.slice('Basic '.length), 'base64').toString().split(':');
    for (let i = 0; i < 4; i++) {
      await sys.api('/customers', { auth: basicAuthHeader(tokenId, 'wrong-secret-0000000000') });
    }
    expectEnvelope(
      await sys.api('/customers', { auth: basicAuthHeader(tokenId, 'wrong-secret-0000000000') }),
      429,
      'RATE_LIMITED',
    );
    expect((await sys.api('/customers?limit=1', { auth: other.auth })).status).toBe(200);
  });
});

describe('per client address', () => {
  it(
    'failed checks from one address are throttled across token '
      + 'ids (a new id gets one check), whatever X-Forwarded-For claims',
    async () => {
      const own = await startTestSystem({ env: { GATEWAY_AUTH_FAILURES_PER_ADDRESS: '5' } });
      try {
        // Without GATEWAY_TRUST_PROXY the header is not believed: every guess counts against 127.0.0.1.
        const elsewhere = (i: number) => ({ 'x-forwarded-for': `203.0.113.${i}` });
        for (let i = 0; i < 5; i++) {
          expectEnvelope(
            await own.api('/customers', {
              auth: basicAuthHeader(`token-${i}`, 'wrong-secret-0000000000'),
              headers: elsewhere(i),
            }),
            401,
            'UNAUTHORIZED',
          );
        }
        expectEnvelope(
          await own.api('/customers', {
            auth: basicAuthHeader('token-0', 'wrong-secret-0000000000'),
            headers: elsewhere(9),
          }),
          429,
          'RATE_LIMITED',
        );
        expectEnvelope(
          await own.api('/customers', { auth: basicAuthHeader('token-new', 'wrong-secret-0000000000') }),
          401,
          'UNAUTHORIZED',
        );
        expectEnvelope(
          await own.api('/customers', { auth: basicAuthHeader('token-new', 'wrong-secret-0000000000') }),
          429,
          'RATE_LIMITED',
        );
      } finally {
        await own.stop();
      }
    },
  );
});

test('a port that is taken stops the gateway with a clear error', async () => {
  const blocker = createServer();
  const port = await new Promise<number>((resolve) =>
    blocker.listen(0, '127.0.0.1', () => resolve((blocker.address() as { port: number }).port))
  );
  try {
    const { startGateway } = await import('../../gateway/gateway-server');
    await expect(
      startGateway({
        host: '127.0.0.1',
        port,
        peers: sys.system.peers,
        serviceAddresses: [],
        logger: (await import('../../lib/log')).silentLogger,
      }),
    )
      .rejects.toThrow(`127.0.0.1:${port} is already in use by another process`);
  } finally {
    blocker.close();
  }
});
