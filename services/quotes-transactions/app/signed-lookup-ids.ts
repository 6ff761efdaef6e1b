import { createHmac, hkdfSync, randomInt, timingSafeEqual } from 'node:crypto';
import { CURRENCY_CODES } from '../domain/currency-catalogue';
import type { LookupTarget } from '../domain/lookup';

/**
 * Lookup ids that prove themselves, so that a lookup writes nothing.
 *
 * A quote citing a lookup checks only: the lookup is the platform's, not expired, about the quote's
 * receiver, and offers the receiving currency (whose bounds are a fixed table). All of that fits in
 * the 122 free bits of a UUIDv8, so the id keeps the `Lookup:<uuid>` form clients see:
 *
 *   expiry (32 bits, Unix seconds) | up to 3 currencies (3 × 6 bits, catalogue index + 1; 0 = none)
 *   | nonce (8 bits) | tag (64 bits: HMAC-SHA256 over the platform, the receiver, the expiry,
 *   the currency codes and the nonce, truncated)
 *
 * The tag is checked in constant time against what the quote itself names (platform, receiver), so
 * an id of another platform or receiver, or with any bit changed, does not verify. The MAC covers the
 * currency codes, not their catalogue positions: a catalogue reordered by an upgrade fails closed.
 * An offer that does not fit (more than 3 currencies) gets a random UUIDv4 and a stored record.
 */
export interface SignedLookupIds {
  /** The id of a lookup offering `codes` (in order), or undefined when the offer does not fit. */
  sign(lookup: SignedLookupContent): string | undefined;
  /** Whether `lookupId` is one of these ids (UUIDv8), whatever it verifies to. */
  isSigned(lookupId: string): boolean;
  /** What the id carries, if it was made for this platform and receiver with this key; else null. */
  verify(platformId: string, target: LookupTarget, lookupId: string): VerifiedLookup | null;
}

export interface SignedLookupContent {
  platformId: string;
  target: LookupTarget;
  /** Whole seconds: the id carries the expiry to the second. */
  expiresAt: Date;
  codes: string[];
}

export interface VerifiedLookup {
  expiresAt: Date;
  codes: string[];
}

const PREFIX = 'Lookup:';
const MAX_CODES = 3;
const CODE_BITS = 6n;
const TAG_BYTES = 8;
const LABEL = 'grid-payments lookup ids v1';

/** The signing key, derived from a service key (HKDF, its own label), so no new setting is needed. */
export function lookupIdKey(serviceKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', serviceKey, Buffer.alloc(0), LABEL, 32));
}

function targetOf(target: LookupTarget): string {
  return 'accountId' in target ? `account:${target.accountId}` : `uma:${target.receiverUmaAddress.toLowerCase()}`;
}

/** 122 payload bits → the 16 bytes of a UUIDv8 (version nibble 8, variant 10). */
function toUuid(payload: bigint): string {
  const bytes = Buffer.alloc(16);
  const high = payload >> 74n; // 48 bits: bytes 0–5
  const middle = (payload >> 62n) & 0xfffn; // 12 bits: low nibble of byte 6, byte 7
  const low = payload & ((1n << 62n) - 1n); // 62 bits: low 6 bits of byte 8, bytes 9–15
  bytes.writeUIntBE(Number(high), 0, 6);
  bytes[6] = 0x80 | Number(middle >> 8n);
  bytes[7] = Number(middle & 0xffn);
  bytes.writeBigUInt64BE((0b10n << 62n) | low, 8);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const UUID_V8 = /^([0-9a-f]{8})-([0-9a-f]{4})-8([0-9a-f]{3})-([89ab][0-9a-f]{3})-([0-9a-f]{12})$/;

function fromUuid(uuid: string): bigint | undefined {
  const m = UUID_V8.exec(uuid);
  if (!m) return undefined;
  const high = BigInt(`0x${m[1]}${m[2]}`);
  const middle = BigInt(`0x${m[3]}`);
  const low = BigInt(`0x${m[4]}${m[5]}`) & ((1n << 62n) - 1n);
  return (high << 74n) | (middle << 62n) | low;
}

export function createSignedLookupIds(key: Buffer): SignedLookupIds {
  function tag(platformId: string, target: LookupTarget, expirySeconds: number, codes: string[], nonce: number): Buffer {
    const content = JSON.stringify([platformId, targetOf(target), expirySeconds, codes, nonce]);
    return createHmac('sha256', key).update(content).digest().subarray(0, TAG_BYTES);
  }

  return {
    sign({ platformId, target, expiresAt, codes }) {
      const expirySeconds = Math.floor(expiresAt.getTime() / 1000);
      const indexes = codes.map((c) => CURRENCY_CODES.indexOf(c) + 1);
      if (codes.length === 0 || codes.length > MAX_CODES || indexes.some((i) => i < 1 || i >= 1 << Number(CODE_BITS))) return undefined;
      if (expirySeconds * 1000 !== expiresAt.getTime() || expirySeconds < 0 || expirySeconds >= 2 ** 32) return undefined;
      const nonce = randomInt(256);
      let payload = BigInt(expirySeconds);
      for (let i = 0; i < MAX_CODES; i++) payload = (payload << CODE_BITS) | BigInt(indexes[i] ?? 0);
      payload = (payload << 8n) | BigInt(nonce);
      payload = (payload << 64n) | tag(platformId, target, expirySeconds, codes, nonce).readBigUInt64BE(0);
      return `${PREFIX}${toUuid(payload)}`;
    },
    isSigned(lookupId) {
      return lookupId.startsWith(PREFIX) && UUID_V8.test(lookupId.slice(PREFIX.length).toLowerCase());
    },
    verify(platformId, target, lookupId) {
      if (!lookupId.startsWith(PREFIX)) return null;
      const payload = fromUuid(lookupId.slice(PREFIX.length).toLowerCase());
      if (payload === undefined) return null;
      const claimed = Buffer.alloc(TAG_BYTES);
      claimed.writeBigUInt64BE(payload & ((1n << 64n) - 1n));
      const nonce = Number((payload >> 64n) & 0xffn);
      const codes: string[] = [];
      for (let i = MAX_CODES - 1; i >= 0; i--) {
        const index = Number((payload >> (72n + BigInt(i) * CODE_BITS)) & ((1n << CODE_BITS) - 1n));
        if (index === 0) continue;
        const code = CURRENCY_CODES[index - 1];
        if (!code) return null;
        codes.push(code);
      }
      const expirySeconds = Number(payload >> (72n + BigInt(MAX_CODES) * CODE_BITS));
      const expected = tag(platformId, target, expirySeconds, codes, nonce);
      if (!timingSafeEqual(claimed, expected)) return null;
      return { expiresAt: new Date(expirySeconds * 1000), codes };
    },
  };
}
