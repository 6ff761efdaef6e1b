import { createHmac, hkdfSync, randomInt, timingSafeEqual } from 'node:crypto';
import { CURRENCY_CODES } from '../../shared/domain/currency-catalogue';
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
const CODE_LIMIT = 1 << 6;
const LABEL = 'grid-payments lookup ids v1';

/** The signing key, derived from a service key (HKDF, its own label), so no new setting is needed. */
export function lookupIdKey(serviceKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', serviceKey, Buffer.alloc(0), LABEL, 32));
}

function targetOf(target: LookupTarget): string {
  return 'accountId' in target ? `account:${target.accountId}` : `uma:${target.receiverUmaAddress.toLowerCase()}`;
}

/*
 * The 16 bytes of the UUID (version nibble 8 in byte 6, variant bits 10 in byte 8):
 *   bytes 0–3  expiry, Unix seconds
 *   bytes 4, 5, low nibble of 6, low 6 bits of 8: 26 bits = 3 currencies × 6 bits, then the 8-bit nonce
 *   byte 7 and bytes 9–15: the 64-bit tag
 */
function toUuid(expirySeconds: number, packed: number, tag: Buffer): string {
  const bytes = Buffer.alloc(16);
  bytes.writeUInt32BE(expirySeconds, 0);
  bytes[4] = (packed >>> 18) & 0xff;
  bytes[5] = (packed >>> 10) & 0xff;
  bytes[6] = 0x80 | ((packed >>> 6) & 0x0f);
  bytes[7] = tag[0];
  bytes[8] = 0x80 | (packed & 0x3f);
  tag.copy(bytes, 9, 1, 8);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const UUID_V8 = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function fromUuid(uuid: string): { expirySeconds: number; packed: number; tag: Buffer } | undefined {
  if (!UUID_V8.test(uuid)) return undefined;
  const bytes = Buffer.from(uuid.replace(/-/g, ''), 'hex');
  const packed = (bytes[4] << 18) | (bytes[5] << 10) | ((bytes[6] & 0x0f) << 6) | (bytes[8] & 0x3f);
  const tag = Buffer.alloc(8);
  tag[0] = bytes[7];
  bytes.copy(tag, 1, 9, 16);
  return { expirySeconds: bytes.readUInt32BE(0), packed, tag };
}

/** What a signed lookup id's tag covers: the platform, the receiver, the expiry, the currencies and the nonce. */
interface SignedContent {
  platformId: string;
  target: LookupTarget;
  expirySeconds: number;
  codes: string[];
  nonce: number;
}

export function createSignedLookupIds(key: Buffer): SignedLookupIds {
  const tag = ({ platformId, target, expirySeconds, codes, nonce }: SignedContent): Buffer =>
    createHmac('sha256', key).update(JSON.stringify([platformId, targetOf(target), expirySeconds, codes, nonce]))
      .digest().subarray(0, 8);

  return {
    sign({ platformId, target, expiresAt, codes }) {
      const expirySeconds = Math.floor(expiresAt.getTime() / 1000);
      const indexes = codes.map((c) => CURRENCY_CODES.indexOf(c) + 1);
      if (codes.length === 0 || codes.length > MAX_CODES || indexes.some((i) => i < 1 || i >= CODE_LIMIT)) {
        return undefined;
      }
      if (expirySeconds * 1000 !== expiresAt.getTime() || expirySeconds < 0 || expirySeconds >= 2 ** 32) {
        return undefined;
      }
      const nonce = randomInt(256);
      const packed = (((indexes[0] << 6 | (indexes[1] ?? 0)) << 6 | (indexes[2] ?? 0)) << 8) | nonce;
      return `${PREFIX}${toUuid(expirySeconds, packed, tag({ platformId, target, expirySeconds, codes, nonce }))}`;
    },
    isSigned(lookupId) {
      return lookupId.startsWith(PREFIX) && UUID_V8.test(lookupId.slice(PREFIX.length).toLowerCase());
    },
    verify(platformId, target, lookupId) {
      if (!lookupId.startsWith(PREFIX)) return null;
      const parsed = fromUuid(lookupId.slice(PREFIX.length).toLowerCase());
      if (!parsed) return null;
      const { expirySeconds, packed, tag: claimed } = parsed;
      const codes: string[] = [];
      for (const shift of [20, 14, 8]) {
        const index = (packed >>> shift) & (CODE_LIMIT - 1);
        if (index === 0) continue;
        const code = CURRENCY_CODES[index - 1];
        if (!code) return null;
        codes.push(code);
      }
      const expected = tag({ platformId, target, expirySeconds, codes, nonce: packed & 0xff });
      if (!timingSafeEqual(claimed, expected)) return null;
      return { expiresAt: new Date(expirySeconds * 1000), codes };
    },
  };
}
