import bs58check from 'bs58check';
import { p256 } from '@noble/curves/nist';
import { hpkeSeal } from './hpke';
import { parseP256PublicKeyBytes } from './p256-keys';

export interface SessionKeyBundle {
  /** Compressed lowercase hex: the key that stamps of this session carry. */
  sessionPublicKey: string;
  /** base58check(compressed encapsulated key, 33 bytes || ciphertext); for `decryptCredentialBundle`. */
  encryptedSessionSigningKey: string;
}

/**
 * Generates a session key pair and seals its 32-byte private key to the client's
 * `clientPublicKey` (hex, compressed or uncompressed). The private key is neither returned
 * nor kept. Throws WalletCryptoError INVALID_PUBLIC_KEY.
 */
export async function createSessionKeyBundle(clientPublicKey: string): Promise<SessionKeyBundle> {
  const secret = p256.utils.randomSecretKey();
  try {
    const sessionPublicKey = Buffer.from(p256.getPublicKey(secret, true)).toString('hex');
    const { encappedPublic, ciphertext } = await hpkeSeal({ plaintext: secret, recipientPublicKey: clientPublicKey });
    const compressedEnc = Buffer.from(parseP256PublicKeyBytes(encappedPublic).compressed, 'hex');
    return {
      sessionPublicKey,
      encryptedSessionSigningKey: bs58check.encode(Buffer.concat([compressedEnc, ciphertext])),
    };
  } finally {
    secret.fill(0);
  }
}
