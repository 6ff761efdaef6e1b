import { createHash } from 'node:crypto';
import { p256 } from '@noble/curves/nist';
import { deriveP256PublicKey, generateP256KeyPair, parseP256PrivateKey } from './p256-keys';

/**
 * The service's enclave signing key: it signs OTP target bundles, and clients pin its
 * uncompressed public key (`enclaveQuorumPublic`). The private key stays in a closure so
 * that serialising or logging the object cannot reveal it.
 */
export interface EnclaveSigningKey {
  /** Uncompressed SEC1 public key, lowercase hex: the value clients pin. */
  readonly publicKey: string;
  /** ECDSA P-256 / SHA-256 over `data`; DER hex, normalised to low S. */
  sign(data: Uint8Array): string;
}

/** Throws WalletCryptoError INVALID_PRIVATE_KEY. */
export function loadEnclaveSigningKey(privateKeyHex: string): EnclaveSigningKey {
  const secret = parseP256PrivateKey(privateKeyHex);
  const publicKey = deriveP256PublicKey(privateKeyHex).uncompressed;
  return Object.freeze({
    publicKey,
    sign(data: Uint8Array): string {
      const digest = createHash('sha256').update(data).digest();
      const signature = p256.sign(digest, secret, { lowS: true, prehash: false });
      return Buffer.from(signature.toBytes('der')).toString('hex');
    },
  });
}

/** For development and tests: a fresh key to put in configuration. */
export function generateEnclaveSigningKey(): { privateKey: string; publicKey: string } {
  const pair = generateP256KeyPair();
  return { privateKey: pair.privateKey, publicKey: pair.publicKeyUncompressed };
}
