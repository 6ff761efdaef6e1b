import { createLocalJWKSet, errors, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import { oidcFailure } from './oidc-failure';

export type FetchLike = (url: string, init?: { signal?: AbortSignal; headers?: Record<string, string> }) => Promise<{
  ok: boolean;
  status: number;
  json(): Promise<unknown>;
}>;

export interface IssuerKeyCacheOptions {
  fetchImpl: FetchLike;
  now: () => number;
  /** How long a discovery document and key set are trusted before a refetch. */
  cacheTtlMs: number;
  /** Minimum time between key-set fetches of one issuer when a token names an unknown `kid`. */
  refetchCooldownMs: number;
  fetchTimeoutMs: number;
}

interface IssuerEntry {
  jwksUri: string;
  discoveredAt: number;
  keys: JWTVerifyGetKey;
  keysFetchedAt: number;
}

export interface IssuerKeyCache {
  /** A jose key resolver for `issuer` that refetches the key set once (per cooldown) on an unknown `kid`. */
  resolverFor(issuer: string): JWTVerifyGetKey;
}

function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
}

export function createIssuerKeyCache(options: IssuerKeyCacheOptions): IssuerKeyCache {
  const entries = new Map<string, IssuerEntry>();
  // One fetch in flight per issuer: concurrent verifies share it.
  const inFlight = new Map<string, Promise<IssuerEntry>>();

  async function getJson(url: string, what: string): Promise<Record<string, unknown>> {
    let body: unknown;
    try {
      const res = await options.fetchImpl(url, {
        signal: AbortSignal.timeout(options.fetchTimeoutMs),
        headers: { accept: 'application/json' },
      });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      body = await res.json();
    } catch (err) {
      throw oidcFailure('ISSUER_UNAVAILABLE', `could not fetch the issuer's ${what}`, err);
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw oidcFailure('ISSUER_UNAVAILABLE', `the issuer's ${what} is not a JSON object`);
    }
    return body as Record<string, unknown>;
  }

  async function fetchKeys(jwksUri: string): Promise<JWTVerifyGetKey> {
    const jwks = await getJson(jwksUri, 'key set');
    try {
      return createLocalJWKSet(jwks as unknown as JSONWebKeySet);
    } catch (err) {
      throw oidcFailure('ISSUER_UNAVAILABLE', "the issuer's key set is invalid", err);
    }
  }

  async function discover(issuer: string): Promise<IssuerEntry> {
    const doc = await getJson(discoveryUrl(issuer), 'discovery document');
    if (doc.issuer !== issuer) throw oidcFailure('ISSUER_UNAVAILABLE', 'discovery document names another issuer');
    const jwksUri = doc.jwks_uri;
    if (typeof jwksUri !== 'string' || !/^https?:\/\//.test(jwksUri)) {
      throw oidcFailure('ISSUER_UNAVAILABLE', 'discovery document has no usable jwks_uri');
    }
    const keys = await fetchKeys(jwksUri);
    const at = options.now();
    return { jwksUri, discoveredAt: at, keys, keysFetchedAt: at };
  }

  function load(issuer: string, refresh: () => Promise<IssuerEntry>): Promise<IssuerEntry> {
    let pending = inFlight.get(issuer);
    if (!pending) {
      pending = refresh()
        .then((entry) => {
          entries.set(issuer, entry);
          return entry;
        })
        .finally(() => inFlight.delete(issuer));
      inFlight.set(issuer, pending);
    }
    return pending;
  }

  async function current(issuer: string): Promise<IssuerEntry> {
    const entry = entries.get(issuer);
    if (entry && options.now() - entry.discoveredAt < options.cacheTtlMs) return entry;
    return load(issuer, () => discover(issuer));
  }

  async function refetchKeys(issuer: string, stale: IssuerEntry): Promise<IssuerEntry> {
    return load(issuer, async () => ({ ...stale, keys: await fetchKeys(stale.jwksUri), keysFetchedAt: options.now() }));
  }

  return {
    resolverFor(issuer) {
      return async (header, token) => {
        const entry = await current(issuer);
        try {
          return await entry.keys(header, token);
        } catch (err) {
          if (!(err instanceof errors.JWKSNoMatchingKey)) throw err;
          if (options.now() - entry.keysFetchedAt < options.refetchCooldownMs) throw err;
          const latest = entries.get(issuer);
          // Another verify may already have refetched since this one read the entry.
          const fresh = latest && latest !== entry ? latest : await refetchKeys(issuer, entry);
          return fresh.keys(header, token);
        }
      };
    },
  };
}
