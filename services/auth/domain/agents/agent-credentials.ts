import { createHash, randomBytes, randomInt } from 'node:crypto';

/*
 * Device codes and access tokens. A device code is short enough to type: GRID-AGENT- and three
 * groups of four symbols from a 32-letter alphabet without look-alikes (60 random bits), far beyond
 * what the gateway's redemption throttle lets anyone try. An access token is 32 random bytes. Both
 * are stored as SHA-256 digests only; the digest is the lookup key, so the token is never compared
 * in clear.
 */

const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const PREFIX = 'GRID-AGENT-';
const GROUPS = 3;

export function newDeviceCode(): string {
  const groups = Array.from(
    { length: GROUPS },
    () => Array.from({ length: 4 }, () => ALPHABET[randomInt(ALPHABET.length)]).join(''),
  );
  return `${PREFIX}${groups.join('-')}`;
}

/** What a person might type for the same code: any case, spaces or dashes anywhere, with or without the prefix. */
export function normalizeDeviceCode(code: string): string {
  const symbols = code.toUpperCase().replace(/[\s-]/g, '').replace(/^GRIDAGENT/, '');
  return symbols.match(/.{1,4}/g)?.join('-') ?? '';
}

export const deviceCodeDigest = (code: string) => digest(`device-code:${normalizeDeviceCode(code)}`);

export function newAccessToken(): string {
  return `gat_${randomBytes(32).toString('hex')}`;
}

export const accessTokenDigest = (token: string) => digest(`access-token:${token}`);

function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}
