import bs58check from 'bs58check';
import { expectRejection } from './expect-failure.fixture';
import { createSessionKeyBundle } from './session-key-bundle';
import { parseStamp, verifyStamp } from './stamp';
import { ApiKeyStamper, turnkeyCrypto } from './turnkey-client.fixture';

describe('session key bundle', () => {
  const client = turnkeyCrypto.generateP256KeyPair();

  it.each(['uncompressed', 'compressed'] as const)(
    'decrypts with decryptCredentialBundle (%s clientPublicKey) to a key that stamps for the session',
    async (form) => {
      const clientPublicKey = form === 'compressed' ? client.publicKey : client.publicKeyUncompressed;
      const bundle = await createSessionKeyBundle(clientPublicKey);
      expect(Object.keys(bundle).sort()).toEqual(['encryptedSessionSigningKey', 'sessionPublicKey']);
      expect(bundle.sessionPublicKey).toMatch(/^0[23][0-9a-f]{64}$/);

      const raw = bs58check.decode(bundle.encryptedSessionSigningKey);
      expect(raw).toHaveLength(33 + 32 + 16);
      expect([2, 3]).toContain(raw[0]);

      const sessionPrivateKey = turnkeyCrypto.decryptCredentialBundle(
        bundle.encryptedSessionSigningKey,
        client.privateKey,
      );
      expect(sessionPrivateKey).toMatch(/^[0-9a-f]{64}$/);
      expect(Buffer.from(turnkeyCrypto.getPublicKey(sessionPrivateKey, true)).toString('hex')).toBe(
        bundle.sessionPublicKey,
      );

      const payload = '{"requestId":"Request:0b5e1c7a-3f0d-4b8e-9a2c-6d7e8f9a0b1c"}';
      const stamper = new ApiKeyStamper({ apiPublicKey: bundle.sessionPublicKey, apiPrivateKey: sessionPrivateKey });
      const stamp = parseStamp((await stamper.stamp(payload)).stampHeaderValue);
      expect(stamp.publicKey).toBe(bundle.sessionPublicKey);
      expect(verifyStamp(stamp, payload)).toBe(true);
    },
  );

  it('mints a new session key every time and only the intended client can open it', async () => {
    const a = await createSessionKeyBundle(client.publicKeyUncompressed);
    const b = await createSessionKeyBundle(client.publicKeyUncompressed);
    expect(a.sessionPublicKey).not.toBe(b.sessionPublicKey);
    const stranger = turnkeyCrypto.generateP256KeyPair();
    expect(() => turnkeyCrypto.decryptCredentialBundle(a.encryptedSessionSigningKey, stranger.privateKey)).toThrow();
  });

  it('refuses a client public key that is not a P-256 point', async () => {
    await expectRejection(createSessionKeyBundle('04' + 'ab'.repeat(64)), 'INVALID_PUBLIC_KEY');
    await expectRejection(createSessionKeyBundle('not hex'), 'INVALID_PUBLIC_KEY');
  });
});
