import type { Router } from 'express';
import { gzipSync } from 'node:zlib';
import { apiRoutes } from '../../gateway/routes/api-routes';
import type { PeerClients } from '../../lib/runtime/peer-clients';

export interface Route {
  method: string;
  path: string;
}

/** Every route the gateway serves, read from its router (so a new route is fuzzed without listing it). */
export function servedRoutes(): Route[] {
  const unused = new Proxy({}, { get: () => new Proxy({}, { get: () => () => undefined }) }) as PeerClients;
  const routes: Route[] = [];
  const walk = (router: Router) => {
    for (
      const layer of router.stack as unknown as Array<
        { route?: { path: string; methods: Record<string, boolean> }; handle?: Router }
      >
    ) {
      if (layer.route) {
        for (const method of Object.keys(layer.route.methods)) {
          routes.push({ method: method.toUpperCase(), path: layer.route.path });
        }
      } else if (layer.handle?.stack) walk(layer.handle);
    }
  };
  walk(apiRoutes(unused) as unknown as Router);
  return routes;
}

/** A small seeded generator (mulberry32), so a failing run can be replayed with FUZZ_SEED. */
export function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)];
  return { next, int, pick };
}
export type Random = ReturnType<typeof createRandom>;

const TYPES = [
  'Customer',
  'InternalAccount',
  'ExternalAccount',
  'Transaction',
  'Quote',
  'Lookup',
  'AuthMethod',
  'Session',
  'Webhook',
  'Platform',
];
const UUID = '019542f5-b3e7-4d02-8000-000000000001';
const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'null',
  'undefined',
  'true',
  '0',
  '-1',
  '1e309',
  'NaN',
  '__proto__',
  'constructor',
  'prototype',
  '\ud800',
  '\udfff',
  '\u202e\u0644\u0627',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  '😀'.repeat(50),
  '\r\n\r\nX-Injected: 1',
  '../../etc/passwd',
  '%00',
  '%ZZ',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '$where',
  '{"$gt":""}',
  'a'.repeat(5_000),
  'x'.repeat(300_000),
  `Customer:${UUID}`,
  `Lookup:${UUID}x`,
  '$sandbox.internal.error@uma.example',
  '$bad@',
  'USD',
  'usd',
  'XXX',
  '2026-13-45T99:99:99Z',
  '2026-01-01T00:00:00Z',
];
const ODD_NUMBERS = [
  0,
  -0,
  -1,
  1,
  0.5,
  -0.0001,
  2 ** 31,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 63),
  1e308,
  -1e308,
  5e-324,
  123456789012345678901234567890,
];
const FIELDS = [
  'customerType',
  'platformCustomerId',
  'fullName',
  'email',
  'birthDate',
  'nationality',
  'address',
  'currency',
  'currencies',
  'accountInfo',
  'accountType',
  'beneficiary',
  'customerId',
  'accountId',
  'source',
  'destination',
  'sourceType',
  'destinationType',
  'lockedCurrencySide',
  'lockedCurrencyAmount',
  'amount',
  'lookupId',
  'immediatelyExecute',
  'umaAddress',
  'webhookEndpoint',
  'feeConfigs',
  'limits',
  'type',
  'encryptedOtpBundle',
  'oidcToken',
  'clientPublicKey',
  'attestation',
  'assertion',
  'nickname',
  'challenge',
  'reason',
  'privateEnabled',
  'endUserTermsConsent',
  'businessInfo',
  'platformFeeOverride',
  'paymentRail',
  'senderUmaAddress',
  'receiverUmaAddress',
  'signature',
  '__proto__',
  'constructor',
  'prototype',
  '$set',
  'toString',
  'hasOwnProperty',
];

export function oddId(r: Random): string {
  switch (r.int(5)) {
    case 0:
      return `${r.pick(TYPES)}:${UUID}`;
    case 1:
      return `${r.pick(TYPES)}:not-a-uuid`;
    case 2:
      return r.next() < 0.8
        ? percentEncode(r.pick(ODD_STRINGS)) || 'x'
        : r.pick(['%ZZ', '%', '%C3%28', '..%2F..', '%00']);
    case 3:
      return `${r.pick(TYPES)}:${UUID}`.toLowerCase();
    default:
      return 'x'.repeat(1 + r.int(3000));
  }
}

/** A JSON value of a random shape: scalars at the edges, odd strings, deep and wide structures, pollution keys. */
export function oddValue(r: Random, depth = 0): unknown {
  const k = r.int(depth > 3 ? 5 : 9);
  switch (k) {
    case 0:
      return r.pick(ODD_STRINGS);
    case 1:
      return r.pick(ODD_NUMBERS);
    case 2:
      return r.next() < 0.5;
    case 3:
      return null;
    case 4:
      return r.pick([`${r.pick(TYPES)}:${UUID}`, r.pick(ODD_STRINGS)]);
    case 5:
      return Array.from({ length: r.int(4) }, () => oddValue(r, depth + 1));
    case 6:
      return oddObject(r, depth + 1);
    case 7:
      return nest(r.pick([10, 31, 33, 49, 200]), r.next() < 0.5);
    default:
      return Array.from({ length: r.pick([100, 5_000]) }, () => r.int(10));
  }
}

function oddObject(r: Random, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = r.int(6); i >= 0; i--) {
    Object.defineProperty(out, r.pick(FIELDS), {
      value: oddValue(r, depth),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function nest(depth: number, arrays: boolean): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = arrays ? [value] : { a: value };
  return value;
}

/** Mutates a valid body: a member removed, replaced by an odd value, or an odd member added. */
export function mutate(r: Random, body: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(body);
  const paths: Array<[Record<string, unknown>, string]> = [];
  const collect = (node: Record<string, unknown>) => {
    for (const [key, value] of Object.entries(node)) {
      paths.push([node, key]);
      if (value && typeof value === 'object' && !Array.isArray(value)) collect(value as Record<string, unknown>);
    }
  };
  collect(copy);
  for (let i = 1 + r.int(3); i > 0; i--) {
    const [node, key] = paths.length ? r.pick(paths) : [copy, 'x'];
    const choice = r.int(3);
    if (choice === 0) delete node[key];
    else if (choice === 1) node[key] = oddValue(r);
    else {Object.defineProperty(node, r.pick(FIELDS), {
        value: oddValue(r),
        enumerable: true,
        writable: true,
        configurable: true,
      });}
  }
  return copy;
}

/** Percent-encodes the UTF-8 bytes (a lone surrogate becomes U+FFFD, as a client would send it). */
function percentEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    out += /[A-Za-z0-9_.~-]/.test(String.fromCharCode(byte))
      ? String.fromCharCode(byte)
      : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Any odd value as query text (an object whose `toString` member is not a function has no String()). */
const asText = (
  value: unknown,
) => (typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value));

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

/** One request to a route: odd path parameters and query, and for write methods an odd body in an odd envelope. */
export function fuzzRequest(r: Random, route: Route, seeds: Record<string, Record<string, unknown>>): FuzzRequest {
  const path = route.path.replace(/:([A-Za-z]+)/g, () => oddId(r));
  const query = Array.from(
    { length: r.int(3) },
    () =>
      `${percentEncode(r.pick(FIELDS.concat(['limit', 'cursor', 'customerId', 'status'])))}=${
        percentEncode(asText(oddValue(r)).slice(0, 2_000))
      }`,
  );
  if (r.int(10) === 0) query.push('limit=5&limit=6', 'cursor[$gt]=', 'a[b][c]=d');
  const headers: Record<string, string> = {};
  const request: FuzzRequest = {
    method: route.method,
    path: `${path}${query.length ? `?${query.join('&')}` : ''}`,
    headers,
  };
  if (route.method === 'GET' || route.method === 'DELETE') {
    if (r.int(8) === 0) {
      Object.assign(request, { body: '{"a":1}' }, { headers: { 'content-type': 'application/json' } });
    }
    return request;
  }
  const seed = seeds[`${route.method} ${route.path}`];
  const json = seed && r.int(4) !== 0 ? mutate(r, seed) : oddValue(r);
  let body: string | Buffer = JSON.stringify(json) ?? 'null';
  headers['content-type'] = 'application/json';
  switch (r.int(12)) {
    case 0:
      body = body.slice(0, Math.max(0, body.length - 1 - r.int(5)));
      break;
    case 1:
      body = Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0xc3, 0x28]);
      break;
    case 2:
      headers['content-type'] = r.pick([
        'text/plain',
        'application/xml',
        'multipart/form-data; boundary=x',
        'application/json; charset=latin1',
        'application/json; charset=utf-16',
      ]);
      break;
    case 3:
      headers['content-encoding'] = r.pick(['gzip', 'deflate', 'br']);
      break;
    case 4:
      headers['content-encoding'] = 'gzip';
      body = gzipSync(body);
      break;
    case 5:
      body = `${body}${body}`;
      break;
    default:
      break;
  }
  request.body = body;
  return request;
}
