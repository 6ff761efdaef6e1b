import { randomBytes } from 'node:crypto';
import { ConfigError } from '../config';
import { createAesGcmSealer, readPiiKey } from './aes-gcm-sealer';

const KEY = Buffer.alloc(32, 7);
const CUSTOMER = 'Customer:7c4a8d09-ca37-4e3a-9f1b-0b5e3c2d1a00';

describe('AES-256-GCM sealing of personal data', () => {
  const sealer = createAesGcmSealer(KEY);

  test('opens what it sealed; the sealed form does not contain the value', () => {
    const sealed = sealer.seal('123-45-6789', CUSTOMER);
    expect(sealed).toMatch(/^v1\.[0-9a-f]{8}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('6789');
    expect(sealer.open(sealed, CUSTOMER)).toBe('123-45-6789');
  });

  test('a fresh nonce per value: the same value seals differently', () => {
    expect(sealer.seal('123-45-6789', CUSTOMER)).not.toBe(sealer.seal('123-45-6789', CUSTOMER));
  });

  test('does not open on another record, after tampering, or under another key', () => {
    const sealed = sealer.seal('123-45-6789', CUSTOMER);
    expect(() => sealer.open(sealed, 'Customer:other')).toThrow();
    const body = Buffer.from(sealed.split('.')[3], 'base64url');
    body[0] ^= 1;
    expect(() => sealer.open([...sealed.split('.').slice(0, 3), body.toString('base64url')].join('.'), CUSTOMER))
      .toThrow();
    expect(() => createAesGcmSealer(Buffer.alloc(32, 8)).open(sealed, CUSTOMER)).toThrow(/another key/);
  });
});

describe('ACCOUNTS_PII_KEY', () => {
  test('is read as 32 bytes of hex', () => {
    const hex = randomBytes(32).toString('hex');
    expect(readPiiKey({ ACCOUNTS_PII_KEY: hex, MONGODB_URI: 'mongodb://db' }).toString('hex')).toBe(hex);
  });

  test('is generated per process on the embedded store', () => {
    const a = readPiiKey({});
    expect(a).toHaveLength(32);
    expect(readPiiKey({ MONGODB_URI: ' ' }).equals(a)).toBe(false);
  });

  test('is required with MONGODB_URI, and must be 32 bytes of hex: ConfigError naming the variable', () => {
    expect(() => readPiiKey({ MONGODB_URI: 'mongodb://db' })).toThrow(ConfigError);
    expect(() => readPiiKey({ MONGODB_URI: 'mongodb://db' })).toThrow(
      /ACCOUNTS_PII_KEY is required when MONGODB_URI is set/,
    );
    expect(() => readPiiKey({ ACCOUNTS_PII_KEY: 'abcd' })).toThrow(
      expect.objectContaining({ variable: 'ACCOUNTS_PII_KEY' }) as Error,
    );
  });
});
