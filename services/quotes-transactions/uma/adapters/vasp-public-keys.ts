import { ErrorCode, fetchPublicKeyForVasp, UmaError, type PubKeyResponse, type PublicKeyCache } from '@uma-sdk/core';

/** Another VASP's published keys (its `/.well-known/lnurlpubkey`), cached until they expire. */
export interface VaspPublicKeys {
  keysOf(vaspDomain: string): Promise<PubKeyResponse>;
  /** Forgets a VASP's keys (after a signature of theirs failed to verify, to re-read rotated keys once). */
  forget(vaspDomain: string): void;
}

const DOMAIN = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/i;

/** Domains the SDK reaches over plain `http://`: the sandbox's alone. */
export const isPlainHttpDomain = (domain: string) => {
  const host = domain.split(':')[0].toLowerCase();
  const tld = host.split('.').pop();
  return host === 'localhost' || host === '127.0.0.1' || tld === 'local' || tld === 'internal';
};

/** Refuses a counterparty domain we may not talk to: not a domain, or plain http outside the sandbox. */
export function checkCounterpartyDomain(domain: string, sandbox: boolean): void {
  if (!DOMAIN.test(domain)) throw new UmaError(`"${domain}" is not a VASP domain`, ErrorCode.INVALID_INPUT);
  if (isPlainHttpDomain(domain) && !(sandbox && /^(localhost|127\.0\.0\.1)(:\d+)?$/i.test(domain))) {
    throw new UmaError(
      `${domain} would be reached over plain http, allowed only for localhost in the sandbox`,
      ErrorCode.COUNTERPARTY_NOT_ALLOWED,
    );
  }
}

/** The SDK's cache interface, honouring the keys' expiry (seconds since the epoch) or `defaultTtlMs`. */
function expiringCache(clock: () => Date, defaultTtlMs: number): PublicKeyCache {
  const entries = new Map<string, { keys: PubKeyResponse; until: number }>();
  return {
    fetchPublicKeyForVasp(domain) {
      const entry = entries.get(domain);
      if (!entry || entry.until <= clock().getTime()) return undefined;
      return entry.keys;
    },
    addPublicKeyForVasp(domain, keys) {
      const expires = keys.expirationTimestamp ? keys.expirationTimestamp * 1000 : Infinity;
      entries.set(domain, { keys, until: Math.min(expires, clock().getTime() + defaultTtlMs) });
    },
    removePublicKeyForVasp(domain) {
      entries.delete(domain);
    },
    clear() {
      entries.clear();
    },
  };
}

/**
 * Fetches a VASP's keys with the SDK (which parses the certificate chains), within `timeoutMs`;
 * any failure (unreachable, not 200, not a key document) is COUNTERPARTY_PUBKEY_FETCH_ERROR.
 */
export function createVaspPublicKeys(
  options: { sandbox: boolean; clock: () => Date; ttlMs?: number; timeoutMs?: number },
): VaspPublicKeys {
  const cache = expiringCache(options.clock, options.ttlMs ?? 3_600_000);
  const timeoutMs = options.timeoutMs ?? 5_000;
  return {
    async keysOf(vaspDomain) {
      checkCounterpartyDomain(vaspDomain, options.sandbox);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        const keys = await Promise.race([fetchPublicKeyForVasp({ cache, vaspDomain }), timeout]);
        keys.getSigningPubKey();
        keys.getEncryptionPubKey();
        return keys;
      } catch (err) {
        cache.removePublicKeyForVasp(vaspDomain);
        throw new UmaError(
          `cannot read the public keys of ${vaspDomain}: ${(err as Error).message}`,
          ErrorCode.COUNTERPARTY_PUBKEY_FETCH_ERROR,
        );
      } finally {
        clearTimeout(timer);
      }
    },
    forget(vaspDomain) {
      cache.removePublicKeyForVasp(vaspDomain);
    },
  };
}
