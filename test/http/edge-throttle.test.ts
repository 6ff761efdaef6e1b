import { readEdgeSettings } from '../../gateway/http/edge-settings';
import { basicAuthHeader, startTestSystem, type TestSystem } from '../system-harness';
import { connectedAgent, policy } from './agent-fixtures';

/**
 * A stranger's guesses never lock the owner out, and each credential's
 * request rate is limited and announced. The gateway trusts loopback as its proxy here, so each
 * request names its client address in X-Forwarded-For.
 */
let sys: TestSystem;
beforeAll(async () => {
  sys = await startTestSystem({
    env: {
      GATEWAY_TRUST_PROXY: 'loopback',
      GATEWAY_AUTH_FAILURES_PER_TOKEN: '3',
      GATEWAY_AUTH_FAILURES_PER_ADDRESS: '6',
      GATEWAY_RATE_LIMIT_REQUESTS: '25',
      GATEWAY_RATE_LIMIT_WINDOW_SECONDS: '60',
    },
  });
}, 120_000);
afterAll(() => sys.stop());

const from = (address: string, auth: string) => ({ auth, headers: { 'x-forwarded-for': address } });
const tokenIdOf = (auth: string) => Buffer.from(auth.slice('Basic '.length), 'base64').toString().split(':')[0];

describe('failed authentication never refuses the owner', () => {
  it("guesses at a token id from another address leave the owner's first correct request alone", async () => {
    const owner = await sys.createPlatform();
    const wrong = basicAuthHeader(tokenIdOf(owner.auth), 'wrong-secret-0000000000');
    for (let i = 0; i < 3; i++) expect((await sys.api('/customers', from('203.0.113.9', wrong))).status).toBe(401);
    const throttled = await sys.api('/customers', from('203.0.113.9', wrong));
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    // The owner was never seen before (nothing cached, nothing remembered), from its own address.
    expect((await sys.api('/customers?limit=1', from('198.51.100.7', owner.auth))).status).toBe(200);
  });

  it('a correct secret used before is served even from the address the guesses come from', async () => {
    const owner = await sys.createPlatform();
    expect((await sys.api('/customers?limit=1', from('192.0.2.50', owner.auth))).status).toBe(200);
    const wrong = basicAuthHeader(tokenIdOf(owner.auth), 'wrong-secret-0000000000');
    for (let i = 0; i < 5; i++) await sys.api('/customers', from('192.0.2.50', wrong));
    expect((await sys.api('/customers', from('192.0.2.50', wrong))).status).toBe(429);
    expect((await sys.api('/customers?limit=2', from('192.0.2.50', owner.auth))).status).toBe(200);
  });

  it(
    'an address over its failure limit still gets one check '
      + 'for a token id not tried from it, so its other tokens work',
    async () => {
      const neighbour = await sys.createPlatform();
      for (let i = 0; i < 6; i++) {
        expect(
          (await sys.api(
            '/customers',
            from('192.0.2.60', basicAuthHeader(`token-guess-${i}`, 'wrong-secret-0000000000')),
          )).status,
        ).toBe(401);
      }
      // A guessed id already refused from there stays refused; more failures add nothing.
      expect(
        (await sys.api('/customers', from('192.0.2.60', basicAuthHeader('token-guess-0', 'wrong-secret-0000000000'))))
          .status,
      ).toBe(429);
      // The neighbour behind the same address, seen for the first time, is served.
      expect((await sys.api('/customers?limit=1', from('192.0.2.60', neighbour.auth))).status).toBe(200);
    },
  );

  it('guesses in flight at once cannot exceed the limit: each attempt is reserved before the check', async () => {
    const owner = await sys.createPlatform();
    const wrong = (i: number) => basicAuthHeader(tokenIdOf(owner.auth), `wrong-secret-${i}-00000000000`);
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) => sys.api('/customers', from('203.0.113.20', wrong(i)))),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(13);
  });

  it('many concurrent first requests of the owner share one check and are all served', async () => {
    const owner = await sys.createPlatform();
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => sys.api('/customers?limit=1', from('198.51.100.30', owner.auth))),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
  });

  it('bad agent tokens lock out no agent already connected behind that address', async () => {
    const customer = await sys.api('/customers', {
      method: 'POST',
      json: { customerType: 'INDIVIDUAL', platformCustomerId: 'throttled-agent', fullName: 'Agent Owner' },
    });
    const agent = await connectedAgent(sys, customer.body.id, policy());
    for (let i = 0; i < 4; i++) await sys.api('/agents/me', from('127.0.0.1', `Bearer gat_guess${i}`));
    expect((await sys.api('/agents/me', from('127.0.0.1', 'Bearer gat_guess9'))).status).toBe(429);
    const me = await sys.api('/agents/me', from('127.0.0.1', agent.bearer));
    expect(me.status).toBe(200);
  });

  it('X-Forwarded-For names the client only because GATEWAY_TRUST_PROXY trusts loopback; "true" is refused', () => {
    expect(readEdgeSettings({}).GATEWAY_TRUST_PROXY).toBe(false);
    expect(readEdgeSettings({ GATEWAY_TRUST_PROXY: '1' }).GATEWAY_TRUST_PROXY).toBe(1);
    expect(readEdgeSettings({ GATEWAY_TRUST_PROXY: '10.0.0.0/8, loopback' }).GATEWAY_TRUST_PROXY).toBe(
      '10.0.0.0/8,loopback',
    );
    expect(() => readEdgeSettings({ GATEWAY_TRUST_PROXY: 'true' })).toThrow('GATEWAY_TRUST_PROXY');
    expect(() => readEdgeSettings({ GATEWAY_TRUST_PROXY: 'not-an-address' })).toThrow('GATEWAY_TRUST_PROXY');
  });
});

describe('the per-credential request rate', () => {
  it('is announced on every answer and refused beyond it with 429, Retry-After, for that credential only', async () => {
    const greedy = await sys.createPlatform();
    const first = await sys.api('/customers?limit=1', { auth: greedy.auth });
    expect(first.headers.get('ratelimit-policy')).toBe('"default";q=25;w=60');
    expect(first.headers.get('ratelimit')).toMatch(/^"default";r=24;t=\d+$/);
    let last = first;
    for (let i = 0; i < 24; i++) last = await sys.api('/customers?limit=1', { auth: greedy.auth });
    expect(last.status).toBe(200);
    expect(last.headers.get('ratelimit')).toMatch(/^"default";r=0;t=\d+$/);
    const refused = await sys.api('/customers?limit=1', { auth: greedy.auth });
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 429, code: 'RATE_LIMITED' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('ratelimit')).toMatch(/^"default";r=0;t=[1-9]\d*$/);
    // Another credential, even of the same address, is not slowed.
    const polite = await sys.createPlatform();
    expect((await sys.api('/customers?limit=1', { auth: polite.auth })).status).toBe(200);
  });
});
