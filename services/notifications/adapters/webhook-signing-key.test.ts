import { generateKeyPairSync } from 'node:crypto';
import { ConfigError } from '../../../lib/config';
import { signWebhookBody, verifyWebhookSignature } from '../domain/webhook-signature';
import { loadWebhookSigningKey } from './webhook-signing-key';

// The P-256 generator point: the public key of the private scalar 1.
const G = '04'
  + '6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296'
  + '4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5';

test('32 bytes of hex: the public key is derived from the scalar', () => {
  const key = loadWebhookSigningKey(`${'0'.repeat(63)}1`);
  expect(key.publicKeyHex).toBe(G);
  expect(key.generated).toBe(false);
  expect(key.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
});

test.each(
  [
    ['PKCS#8 PEM', 'pkcs8'],
    ['SEC1 PEM', 'sec1'],
  ] as const,
)('%s, also with its newlines escaped as in an env file', (_name, type) => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const pem = privateKey.export({ format: 'pem', type }).toString();
  for (const value of [pem, pem.replace(/\n/g, '\\n')]) {
    const key = loadWebhookSigningKey(value);
    expect(key.publicKeyPem).toBe(publicKey.export({ format: 'pem', type: 'spki' }));
    expect(verifyWebhookSignature('{}', signWebhookBody('{}', key.privateKey), publicKey)).toBe(true);
  }
});

test('unset: a fresh key is generated', () => {
  const a = loadWebhookSigningKey(undefined);
  const b = loadWebhookSigningKey('  ');
  expect(a.generated && b.generated).toBe(true);
  expect(a.publicKeyHex).not.toBe(b.publicKeyHex);
  expect(a.publicKeyHex).toMatch(/^04[0-9a-f]{128}$/);
});

test.each([
  [
    'another curve',
    generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).privateKey.export({ format: 'pem', type: 'pkcs8' })
      .toString(),
  ],
  ['an Ed25519 key', generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString()],
  ['a scalar of zero', '0'.repeat(64)],
  ['neither PEM nor hex', 'not-a-key'],
  ['a broken PEM', '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----'],
])('%s is a configuration error naming the variable', (_name, value) => {
  expect(() => loadWebhookSigningKey(value)).toThrow(ConfigError);
  expect(() => loadWebhookSigningKey(value)).toThrow(/WEBHOOK_SIGNING_PRIVATE_KEY/);
});
