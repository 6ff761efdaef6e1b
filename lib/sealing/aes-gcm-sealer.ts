import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { ConfigError, whyKeysAreRequired } from '../config';

/** Authenticated encryption of a value for storage, bound to `context` (e.g. the record id). */
export interface Sealer {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
}

const VERSION = 'v1';

/**
 * AES-256-GCM with a fresh 96-bit nonce per value and the record id as associated data, so a
 * sealed value copied onto another record does not open. Format:
 * `v1.<key id>.<nonce>.<ciphertext and tag>` (base64url), the key id naming the key without revealing it.
 */
export function createAesGcmSealer(key: Buffer): Sealer {
  if (key.length !== 32) throw new Error('a sealing key must be 32 bytes');
  const keyId = createHash('sha256').update(key).digest('hex').slice(0, 8);
  return {
    seal(plaintext, context) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, nonce).setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return [VERSION, keyId, nonce.toString('base64url'), body.toString('base64url')].join('.');
    },
    open(sealed, context) {
      const [version, id, nonce, body] = sealed.split('.');
      if (version !== VERSION || !nonce || !body) throw new Error('not a sealed value');
      if (id !== keyId) throw new Error(`sealed under another key (${id})`);
      const data = Buffer.from(body, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url')).setAAD(
        Buffer.from(context, 'utf8'),
      );
      decipher.setAuthTag(data.subarray(data.length - 16));
      return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString('utf8');
    },
  };
}

/**
 * A 32-byte sealing key from the setting `name` (hex). Without it, a process on the embedded store
 * (whose data dies with it) generates one; with MONGODB_URI or in production data outlives the
 * process, so the key is required.
 */
export function readSealingKey(name: string, env: NodeJS.ProcessEnv): Buffer {
  const value = env[name]?.trim();
  if (value) {
    if (!/^[0-9a-fA-F]{64}$/.test(value)) {
      throw new ConfigError(name, 'must be 32 bytes of hex (64 hexadecimal characters)');
    }
    return Buffer.from(value, 'hex');
  }
  const why = whyKeysAreRequired(env);
  if (why) throw new ConfigError(name, `is required ${why} (32 bytes of hex)`);
  return randomBytes(32);
}

/** The key sealing customers' personal data (ACCOUNTS_PII_KEY). */
export const readPiiKey = (env: NodeJS.ProcessEnv): Buffer => readSealingKey('ACCOUNTS_PII_KEY', env);
