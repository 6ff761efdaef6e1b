import { createPublicKey, verify } from 'node:crypto';
import { p256 } from '@noble/curves/nist';
import { generateEnclaveSigningKey, loadEnclaveSigningKey } from './enclave-key';
import { deriveP256PublicKey } from './p256-keys';
import { expectFailure } from './expect-failure.fixture';

describe('enclave signing key', () => {
  const generated = generateEnclaveSigningKey();

  it('exposes the uncompressed public key that clients pin', () => {
    const key = loadEnclaveSigningKey(generated.privateKey);
    expect(generated.publicKey).toMatch(/^04[0-9a-f]{128}$/);
    expect(key.publicKey).toBe(generated.publicKey);
    expect(key.publicKey).toBe(deriveP256PublicKey(generated.privateKey).uncompressed);
  });

  it('signs SHA-256 of the data, DER, low S', () => {
    const key = loadEnclaveSigningKey(generated.privateKey);
    const data = Buffer.from('{"targetPublic":"04"}', 'utf8');
    const point = Buffer.from(key.publicKey, 'hex');
    const publicKey = createPublicKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: point.subarray(1, 33).toString('base64url'),
        y: point.subarray(33).toString('base64url'),
      },
      format: 'jwk',
    });
    for (let i = 0; i < 8; i += 1) {
      const message = Buffer.concat([data, Buffer.from([i])]);
      const signature = key.sign(message);
      expect(verify('sha256', message, { key: publicKey, dsaEncoding: 'der' }, Buffer.from(signature, 'hex'))).toBe(
        true,
      );
      expect(p256.Signature.fromDER(signature).hasHighS()).toBe(false);
    }
  });

  it('does not reveal the private key when serialised', () => {
    const key = loadEnclaveSigningKey(generated.privateKey);
    expect(JSON.stringify(key)).not.toContain(generated.privateKey);
    expect(Object.keys(key)).toEqual(['publicKey', 'sign']);
  });

  it('refuses an invalid private key', () => {
    expectFailure(() => loadEnclaveSigningKey('00'.repeat(32)), 'INVALID_PRIVATE_KEY');
    expectFailure(() => loadEnclaveSigningKey('not hex'), 'INVALID_PRIVATE_KEY');
  });
});
