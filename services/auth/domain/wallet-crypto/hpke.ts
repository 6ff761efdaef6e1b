import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';
import { deriveP256PublicKey, parseP256PrivateKey, parseP256PublicKey, parseP256PublicKeyBytes } from './p256-keys';
import { WalletCryptoError } from './wallet-crypto-error';

/**
 * RFC 9180 base mode as the Turnkey client libraries use it: DHKEM(P-256, HKDF-SHA256),
 * HKDF-SHA256, AES-256-GCM, info "turnkey_hpke", and an AAD the libraries add on top of
 * the RFC: uncompressed enc (65 bytes) || uncompressed recipient public key (65 bytes).
 */
const suite = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes256Gcm() });
const INFO = new TextEncoder().encode('turnkey_hpke');

export interface HpkeSealed {
  /** Uncompressed encapsulated key, 65 bytes. */
  encappedPublic: Uint8Array;
  ciphertext: Uint8Array;
}

export interface HpkeSealInput {
  plaintext: Uint8Array;
  /** Hex SEC1 P-256 public key, compressed or uncompressed. */
  recipientPublicKey: string;
}

export interface HpkeOpenInput {
  /** SEC1 encapsulated key, uncompressed (65 bytes) or compressed (33 bytes). */
  encappedPublic: Uint8Array;
  ciphertext: Uint8Array;
  /** Hex, 32 bytes. */
  recipientPrivateKey: string;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** Throws WalletCryptoError INVALID_PUBLIC_KEY. */
export async function hpkeSeal({ plaintext, recipientPublicKey }: HpkeSealInput): Promise<HpkeSealed> {
  const recipient = Buffer.from(parseP256PublicKey(recipientPublicKey).uncompressed, 'hex');
  const recipientKey = await suite.kem.importKey('raw', recipient, true);
  const sender = await suite.createSenderContext({ recipientPublicKey: recipientKey, info: INFO });
  const encappedPublic = new Uint8Array(sender.enc);
  const ciphertext = new Uint8Array(await sender.seal(plaintext, concat(encappedPublic, recipient)));
  return { encappedPublic, ciphertext };
}

/** Throws WalletCryptoError INVALID_PRIVATE_KEY for a bad key, DECRYPTION_FAILED for anything else. */
export async function hpkeOpen(
  { encappedPublic, ciphertext, recipientPrivateKey }: HpkeOpenInput,
): Promise<Uint8Array> {
  const secret = parseP256PrivateKey(recipientPrivateKey);
  const recipient = Buffer.from(deriveP256PublicKey(recipientPrivateKey).uncompressed, 'hex');
  let enc: Buffer;
  try {
    enc = Buffer.from(parseP256PublicKeyBytes(encappedPublic).uncompressed, 'hex');
  } catch {
    secret.fill(0);
    throw new WalletCryptoError('DECRYPTION_FAILED', 'encapsulated key is not a P-256 point');
  }
  try {
    const recipientKey = await suite.kem.importKey('raw', secret, false);
    const context = await suite.createRecipientContext({ recipientKey, enc, info: INFO });
    return new Uint8Array(await context.open(ciphertext, concat(enc, recipient)));
  } catch {
    throw new WalletCryptoError('DECRYPTION_FAILED', 'HPKE decryption failed');
  } finally {
    secret.fill(0);
  }
}
