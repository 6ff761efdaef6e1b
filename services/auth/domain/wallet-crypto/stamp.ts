import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { p256 } from '@noble/curves/nist';
import { decodeHex } from './decode-hex';
import { LruCache } from './lru-cache';
import { parseP256PublicKey } from './p256-keys';
import { WalletCryptoError } from './wallet-crypto-error';

export const STAMP_SCHEME = 'SIGNATURE_SCHEME_TK_API_P256';

/** A parsed `Service-Wallet-Signature` header. */
export interface Stamp {
  /** Compressed SEC1 P-256 public key, lowercase hex. */
  publicKey: string;
  scheme: typeof STAMP_SCHEME;
  /** ECDSA signature, DER, hex. */
  signature: string;
}

// The stamp JSON is about 300 bytes; anything far larger is refused before decoding.
const MAX_HEADER_LENGTH = 4096;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const MAX_DER_SIGNATURE_BYTES = 72;

/**
 * Validated keys by compressed public key. The KeyObject is built on the first verify, not
 * on parse: building one costs more than a verify, and a key that matches no session
 * never needs one.
 */
export const STAMP_KEY_CACHE_SIZE = 10_000;
interface KnownKey {
  uncompressed: string;
  keyObject?: KeyObject;
}
const knownKeys = new LruCache<string, KnownKey>(STAMP_KEY_CACHE_SIZE);

function malformed(message: string): WalletCryptoError {
  return new WalletCryptoError('STAMP_MALFORMED', message);
}

function toKeyObject(uncompressedHex: string): KeyObject {
  const point = Buffer.from(uncompressedHex, 'hex');
  return createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
}

/** Returns the compressed form and cache entry of a valid P-256 key, undefined for anything else. */
function lookUpKey(publicKeyHex: string): { compressed: string; known: KnownKey } | undefined {
  const cached = knownKeys.get(publicKeyHex);
  if (cached) return { compressed: publicKeyHex, known: cached };
  let parsed;
  try {
    parsed = parseP256PublicKey(publicKeyHex);
  } catch {
    return undefined;
  }
  let known = knownKeys.get(parsed.compressed);
  if (!known) {
    known = { uncompressed: parsed.uncompressed };
    knownKeys.set(parsed.compressed, known);
  }
  return { compressed: parsed.compressed, known };
}

function isDerSignature(bytes: Uint8Array): boolean {
  if (bytes.length > MAX_DER_SIGNATURE_BYTES) return false;
  try {
    // Strict DER, and r and s in [1, n-1]; high S is allowed here and in verification.
    p256.Signature.fromDER(bytes);
    return true;
  } catch {
    return false;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Decodes base64url(JSON {publicKey, scheme, signature}) as produced by
 * `@turnkey/api-key-stamper`. Throws WalletCryptoError STAMP_MALFORMED.
 */
export function parseStamp(headerValue: string): Stamp {
  if (
    typeof headerValue !== 'string'
    || headerValue.length === 0
    || headerValue.length > MAX_HEADER_LENGTH
    || headerValue.length % 4 === 1
    || !BASE64URL.test(headerValue)
  ) {
    throw malformed('stamp is not unpadded base64url');
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(headerValue, 'base64url').toString('utf8'));
  } catch {
    throw malformed('stamp is not JSON');
  }
  if (!isRecord(body)) throw malformed('stamp is not a JSON object');
  const { publicKey, scheme, signature } = body;
  if (typeof publicKey !== 'string' || typeof scheme !== 'string' || typeof signature !== 'string') {
    throw malformed('stamp lacks publicKey, scheme or signature');
  }
  if (scheme !== STAMP_SCHEME) throw malformed('unsupported stamp scheme');
  const signatureBytes = decodeHex(signature);
  if (!signatureBytes || !isDerSignature(signatureBytes)) throw malformed('stamp signature is not DER hex');
  const resolved = lookUpKey(publicKey);
  if (!resolved) throw malformed('stamp public key is not a P-256 key');
  return { publicKey: resolved.compressed, scheme: STAMP_SCHEME, signature: signature.toLowerCase() };
}

/** ECDSA P-256 / SHA-256 over the exact UTF-8 bytes of `payload`; high-S signatures are accepted. */
export function verifyStamp(stamp: Stamp, payload: string): boolean {
  if (stamp.scheme !== STAMP_SCHEME || typeof payload !== 'string') return false;
  const resolved = typeof stamp.publicKey === 'string' ? lookUpKey(stamp.publicKey) : undefined;
  const signature = decodeHex(stamp.signature);
  if (!resolved || !signature) return false;
  try {
    const key = (resolved.known.keyObject ??= toKeyObject(resolved.known.uncompressed));
    return verify('sha256', Buffer.from(payload, 'utf8'), { key, dsaEncoding: 'der' }, signature);
  } catch {
    return false;
  }
}

/** For tests and benchmarks that need a cold cache. */
export function clearStampKeyCache(): void {
  knownKeys.clear();
}
