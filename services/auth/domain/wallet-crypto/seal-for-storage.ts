import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { WalletCryptoError } from './wallet-crypto-error';

/**
 * AES-256-GCM for secrets kept at rest (OTP target private keys). `associatedData` binds a
 * sealed value to its record (a challenge id), so it cannot be moved to another record.
 * Format: "v1." + base64url(iv 12 bytes || ciphertext || tag 16 bytes).
 */
const PREFIX = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const STORAGE_KEY_BYTES = 32;

export interface SealForStorageInput {
  plaintext: string;
  storageKey: Uint8Array;
  associatedData?: string;
}

export interface OpenFromStorageInput {
  sealed: string;
  storageKey: Uint8Array;
  associatedData?: string;
}

function checkKey(storageKey: Uint8Array): void {
  if (!(storageKey instanceof Uint8Array) || storageKey.length !== STORAGE_KEY_BYTES) {
    throw new WalletCryptoError('INVALID_ARGUMENT', 'storage key must be 32 bytes');
  }
}

/** Throws WalletCryptoError INVALID_ARGUMENT for a bad key. */
export function sealForStorage({ plaintext, storageKey, associatedData = '' }: SealForStorageInput): string {
  checkKey(storageKey);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', storageKey, iv);
  cipher.setAAD(Buffer.from(associatedData, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, ciphertext, cipher.getAuthTag()]).toString('base64url');
}

/** Throws WalletCryptoError INVALID_ARGUMENT for a bad key, DECRYPTION_FAILED otherwise. */
export function openFromStorage({ sealed, storageKey, associatedData = '' }: OpenFromStorageInput): string {
  checkKey(storageKey);
  if (typeof sealed !== 'string' || !sealed.startsWith(PREFIX)) {
    throw new WalletCryptoError('DECRYPTION_FAILED', 'sealed value has an unknown format');
  }
  const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64url');
  if (raw.length < IV_BYTES + TAG_BYTES) {
    throw new WalletCryptoError('DECRYPTION_FAILED', 'sealed value is too short');
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', storageKey, raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(associatedData, 'utf8'));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    const plaintext = Buffer.concat([
      decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)),
      decipher.final(),
    ]);
    return plaintext.toString('utf8');
  } catch {
    throw new WalletCryptoError('DECRYPTION_FAILED', 'sealed value could not be opened');
  }
}
