import type { LookupAddress } from 'node:dns';
import {
  endpointProblem,
  endpointUrlProblem,
  forbiddenAddress,
  guardedLookup,
  type LookupAll,
} from './endpoint-safety';

const outside = { allowLocal: false };
const sandbox = { allowLocal: true };

/** A resolver that answers from a table, as DNS would. */
function fakeDns(table: Record<string, string[]>): LookupAll {
  return (hostname, callback) => {
    const found = table[hostname];
    if (!found) return callback(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }), []);
    callback(null, found.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 })));
  };
}

test.each([
  '127.0.0.1',
  '127.8.9.10',
  '10.1.2.3',
  '172.16.0.1',
  '172.31.255.255',
  '192.168.1.1',
  '169.254.169.254',
  '169.254.1.1',
  '100.100.100.200',
  '0.0.0.0',
  '255.255.255.255',
  '224.0.0.1',
  '::1',
  '::',
  'fe80::1',
  'fd00:ec2::254',
  'fc00::1',
  '::ffff:127.0.0.1',
  '::ffff:10.0.0.1',
  '[::1]',
])('%s is forbidden', (address) => {
  expect(forbiddenAddress(address)).toEqual(expect.any(String));
});

test.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'])(
  '%s is allowed',
  (address) => {
    expect(forbiddenAddress(address)).toBeUndefined();
  },
);

describe('the URL, outside the sandbox', () => {
  test.each([
    ['http://hooks.example.com/x', 'must use https'],
    ['https://127.0.0.1:8443/anything', 'must not point at 127.0.0.1'],
    ['https://10.0.0.5/hooks', 'must not point at 10.0.0.5'],
    ['https://169.254.169.254/latest/meta-data', 'must not point at 169.254.169.254'],
    ['https://[::1]:8443/', 'must not point at ::1'],
    ['https://localhost/hooks', 'must not point at this machine'],
    ['https://user:pass@hooks.example.com/', 'must not carry credentials'],
    ['ftp://hooks.example.com/', 'must use https'],
  ])('%s: %s', (url, problem) => {
    expect(endpointUrlProblem(url, outside)).toMatch(problem);
  });
  test('a public https URL is fine', () => {
    expect(endpointUrlProblem('https://hooks.example.com/grid', outside)).toBeUndefined();
    expect(endpointUrlProblem('https://8.8.8.8/grid', outside)).toBeUndefined();
  });
  test('the sandbox allows local http receivers', () => {
    expect(endpointUrlProblem('http://127.0.0.1:4000/hooks', sandbox)).toBeUndefined();
    expect(endpointUrlProblem('ftp://127.0.0.1/', sandbox)).toBe('must use https');
  });
});

describe('at configuration time the host is resolved', () => {
  const dns = fakeDns({
    'hooks.example.com': ['93.184.216.34'],
    'rebind.example.com': ['93.184.216.34', '127.0.0.1'],
    'internal.example.com': ['10.0.0.7'],
  });
  test('a host that resolves to a forbidden address is refused', async () => {
    expect(await endpointProblem('https://internal.example.com/x', outside, dns)).toMatch(
      'must not resolve to 10.0.0.7',
    );
    expect(await endpointProblem('https://rebind.example.com/x', outside, dns)).toMatch(
      'must not resolve to 127.0.0.1',
    );
  });
  test('a public host, or one that does not resolve yet, is accepted (every connection checks again)', async () => {
    expect(await endpointProblem('https://hooks.example.com/x', outside, dns)).toBeUndefined();
    expect(await endpointProblem('https://later.example.com/x', outside, dns)).toBeUndefined();
  });
  test("a trailing-dot name resolves in both forms; in production a name that can't resolve is refused", async () => {
    const hosts = fakeDns({ vm: ['127.0.0.1'], 'hooks.example.com': ['93.184.216.34'] });
    expect(await endpointProblem('https://vm.:8443/hook', outside, hosts)).toMatch('must not resolve to 127.0.0.1');
    expect(await endpointProblem('https://hooks.example.com./x', outside, hosts)).toBeUndefined();
    const production = { allowLocal: false, requireResolvable: true };
    expect(await endpointProblem('https://later.example.com/x', production, hosts)).toMatch(
      'must name a host that resolves',
    );
    expect(await endpointProblem('https://hooks.example.com/x', production, hosts)).toBeUndefined();
  });
  test('the sandbox does not resolve at all', async () => {
    expect(await endpointProblem('https://internal.example.com/x', sandbox, dns)).toBeUndefined();
  });
});

describe('the guarded lookup a connection resolves with', () => {
  const lookup = guardedLookup(
    fakeDns({ 'evil.example.com': ['127.0.0.1'], 'good.example.com': ['93.184.216.34', '2606:2800::1'] }),
  );
  const resolve = (host: string, options: { all?: boolean; family?: number } = {}) =>
    new Promise<{ err: NodeJS.ErrnoException | null; address: unknown; family?: number }>((done) =>
      lookup(host, options as never, (err, address, family) => done({ err, address, family }))
    );
  test('refuses a host resolving to 127.0.0.1', async () => {
    const { err } = await resolve('evil.example.com');
    expect(err?.code).toBe('EFORBIDDENADDRESS');
  });
  test('passes a public host through, by family and all', async () => {
    expect(await resolve('good.example.com')).toEqual({ err: null, address: '93.184.216.34', family: 4 });
    expect(await resolve('good.example.com', { family: 6 })).toEqual({ err: null, address: '2606:2800::1', family: 6 });
    expect((await resolve('good.example.com', { all: true })).address).toHaveLength(2);
  });
});
