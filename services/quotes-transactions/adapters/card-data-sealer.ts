import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { ConfigError } from '../../../lib/config';

export interface CardDataSealer {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
}

/**
 * AES-256-GCM with a fresh nonce per value and the card id as associated data (a sealed value
 * copied onto another card does not open); the same format as the accounts service's PII sealing:
 * `v1.<key id>.<nonce>.<ciphertext and tag>`.
 */
export function createCardDataSealer(key: Buffer): CardDataSealer {
  if (key.length !== 32) throw new Error('the card data key must be 32 bytes');
  const keyId = createHash('sha256').update(key).digest('hex').slice(0, 8);
  return {
    seal(plaintext, context) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, nonce).setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return ['v1', keyId, nonce.toString('base64url'), body.toString('base64url')].join('.');
    },
    open(sealed, context) {
      const [version, id, nonce, body] = sealed.split('.');
      if (version !== 'v1' || !nonce || !body) throw new Error('not a sealed value');
      if (id !== keyId) throw new Error(`sealed under another key (${id})`);
      const data = Buffer.from(body, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url')).setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(data.subarray(data.length - 16));
      return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString('utf8');
    },
  };
}

/** CARDS_DATA_KEY (32 bytes of hex); generated per process on the embedded store, required with MONGODB_URI. */
export function readCardDataKey(env: NodeJS.ProcessEnv): Buffer {
  const value = env.CARDS_DATA_KEY?.trim();
  if (value) {
    if (!/^[0-9a-fA-F]{64}$/.test(value)) throw new ConfigError('CARDS_DATA_KEY', 'must be 32 bytes of hex (64 hexadecimal characters)');
    return Buffer.from(value, 'hex');
  }
  if (env.MONGODB_URI?.trim()) throw new ConfigError('CARDS_DATA_KEY', 'is required when MONGODB_URI is set (32 bytes of hex)');
  return randomBytes(32);
}
