import { p256 } from '@noble/curves/nist';
import { createECDH } from 'node:crypto';
import { decodeHex } from './decode-hex';
import { WalletCryptoError } from './wallet-crypto-error';

/** Both SEC1 encodings of one validated P-256 point, lowercase hex. */
export interface P256PublicKey {
  compressed: string;
  uncompressed: string;
}

export interface P256KeyPair {
  privateKey: string;
  publicKey: string;
  publicKeyUncompressed: string;
}

export const COMPRESSED_PUBLIC_KEY_BYTES = 33;
export const UNCOMPRESSED_PUBLIC_KEY_BYTES = 65;
export const PRIVATE_KEY_BYTES = 32;

function hasSec1Shape(bytes: Uint8Array): boolean {
  if (bytes.length === COMPRESSED_PUBLIC_KEY_BYTES) return bytes[0] === 0x02 || bytes[0] === 0x03;
  if (bytes.length === UNCOMPRESSED_PUBLIC_KEY_BYTES) return bytes[0] === 0x04;
  return false;
}

/** Accepts compressed (33 bytes) or uncompressed (65 bytes) SEC1 bytes of a point on P-256. */
export function parseP256PublicKeyBytes(bytes: Uint8Array): P256PublicKey {
  if (!hasSec1Shape(bytes)) {
    throw new WalletCryptoError('INVALID_PUBLIC_KEY', 'public key must be a 33- or 65-byte SEC1 P-256 point');
  }
  let point;
  try {
    point = p256.Point.fromHex(bytes);
    point.assertValidity();
  } catch {
    throw new WalletCryptoError('INVALID_PUBLIC_KEY', 'public key is not a point on P-256');
  }
  return {
    compressed: Buffer.from(point.toBytes(true)).toString('hex'),
    uncompressed: Buffer.from(point.toBytes(false)).toString('hex'),
  };
}

export function parseP256PublicKey(hex: string): P256PublicKey {
  const bytes = decodeHex(hex);
  if (!bytes) throw new WalletCryptoError('INVALID_PUBLIC_KEY', 'public key must be hex');
  return parseP256PublicKeyBytes(bytes);
}

export function isP256PublicKey(hex: string): boolean {
  try {
    parseP256PublicKey(hex);
    return true;
  } catch {
    return false;
  }
}

export function compressP256PublicKey(hex: string): string {
  return parseP256PublicKey(hex).compressed;
}

export function uncompressP256PublicKey(hex: string): string {
  return parseP256PublicKey(hex).uncompressed;
}

/** 32 bytes, big-endian, in [1, n-1]. The caller owns (and may zero) the returned buffer. */
export function parseP256PrivateKey(hex: string): Uint8Array {
  const bytes = decodeHex(hex);
  if (!bytes || bytes.length !== PRIVATE_KEY_BYTES || !p256.utils.isValidSecretKey(bytes)) {
    bytes?.fill(0);
    throw new WalletCryptoError('INVALID_PRIVATE_KEY', 'private key must be 32 bytes of hex in the P-256 scalar range');
  }
  return bytes;
}

/**
 * Native (OpenSSL) scalar multiplication: the service derives the enclave key's public key at
 * start, and noble's first multiplication builds its precomputed tables (about a quarter of a
 * second of CPU on a busy machine).
 */
export function deriveP256PublicKey(privateKeyHex: string): P256PublicKey {
  const secret = parseP256PrivateKey(privateKeyHex);
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(secret);
    return {
      compressed: ecdh.getPublicKey('hex', 'compressed'),
      uncompressed: ecdh.getPublicKey('hex', 'uncompressed'),
    };
  } finally {
    secret.fill(0);
  }
}

export function generateP256KeyPair(): P256KeyPair {
  const secret = p256.utils.randomSecretKey();
  const privateKey = Buffer.from(secret).toString('hex');
  secret.fill(0);
  const { compressed, uncompressed } = deriveP256PublicKey(privateKey);
  return { privateKey, publicKey: compressed, publicKeyUncompressed: uncompressed };
}
