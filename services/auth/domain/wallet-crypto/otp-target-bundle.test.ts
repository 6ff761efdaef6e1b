import { createPublicKey, verify } from 'node:crypto';
import { generateEnclaveSigningKey } from './enclave-key';
import { expectFailure, expectRejection } from './expect-failure.fixture';
import { createOtpTarget, openEncryptedOtpBundle } from './otp-target-bundle';
import { deriveP256PublicKey } from './p256-keys';
import { turnkeyCrypto } from './turnkey-client.fixture';

interface TargetBundle {
  version: string;
  data: string;
  dataSignature: string;
  enclaveQuorumPublic: string;
}

describe('OTP target bundle', () => {
  const enclave = generateEnclaveSigningKey();
  const client = turnkeyCrypto.generateP256KeyPair();

  it('has the wire shape: signed hex JSON data naming the target public key', () => {
    const target = createOtpTarget({
      enclaveSigningPrivateKey: enclave.privateKey,
      extra: {
        accountId: 'InternalAccount:0f8e2c1a-5b7d-4e3f-9a6b-2c1d0e9f8a7b',
        issuedAt: '2025-01-01T00:00:00.000Z',
      },
    });
    const bundle = JSON.parse(target.bundle) as TargetBundle;
    expect(Object.keys(bundle)).toEqual(['version', 'data', 'dataSignature', 'enclaveQuorumPublic']);
    expect(bundle.version).toBe('v1.0.0');
    expect(bundle.enclaveQuorumPublic).toBe(enclave.publicKey);
    const dataText = Buffer.from(bundle.data, 'hex').toString('utf8');
    expect(JSON.parse(dataText)).toEqual({
      targetPublic: deriveP256PublicKey(target.targetPrivateKey).uncompressed,
      accountId: 'InternalAccount:0f8e2c1a-5b7d-4e3f-9a6b-2c1d0e9f8a7b',
      issuedAt: '2025-01-01T00:00:00.000Z',
    });
    expect(dataText.startsWith('{"targetPublic":"04')).toBe(true);
    expect(target.targetPublicKey).toBe(deriveP256PublicKey(target.targetPrivateKey).uncompressed);
    const point = Buffer.from(enclave.publicKey, 'hex');
    const enclavePublic = createPublicKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: point.subarray(1, 33).toString('base64url'),
        y: point.subarray(33).toString('base64url'),
      },
      format: 'jwk',
    });
    const signature = Buffer.from(bundle.dataSignature, 'hex');
    expect(verify('sha256', Buffer.from(bundle.data, 'hex'), { key: enclavePublic, dsaEncoding: 'der' }, signature))
      .toBe(true);
  });

  it('gives every challenge a fresh target key', () => {
    const a = createOtpTarget({ enclaveSigningPrivateKey: enclave.privateKey });
    const b = createOtpTarget({ enclaveSigningPrivateKey: enclave.privateKey });
    expect(a.targetPrivateKey).not.toBe(b.targetPrivateKey);
  });

  it('refuses an extra member that would replace targetPublic', () => {
    expectFailure(
      () => createOtpTarget({ enclaveSigningPrivateKey: enclave.privateKey, extra: { targetPublic: '04' } }),
      'INVALID_ARGUMENT',
    );
  });

  it('opens what encryptOtpCodeToBundle makes when the client pins our enclave key', async () => {
    const target = createOtpTarget({
      enclaveSigningPrivateKey: enclave.privateKey,
      extra: { accountId: 'InternalAccount:1' },
    });
    for (const clientPublicKey of [client.publicKey, client.publicKeyUncompressed]) {
      const encryptedOtpBundle = await turnkeyCrypto.encryptOtpCodeToBundle(
        '482913',
        target.bundle,
        clientPublicKey,
        enclave.publicKey,
      );
      expect(Object.keys(JSON.parse(encryptedOtpBundle) as object)).toEqual(['encappedPublic', 'ciphertext']);
      const opened = await openEncryptedOtpBundle({ encryptedOtpBundle, targetPrivateKey: target.targetPrivateKey });
      expect(opened).toEqual({ otpCode: '482913', publicKey: client.publicKey });
    }
  });

  it('is refused by the client when it pins another signer', async () => {
    const target = createOtpTarget({ enclaveSigningPrivateKey: enclave.privateKey });
    const other = generateEnclaveSigningKey();
    await expect(turnkeyCrypto.encryptOtpCodeToBundle('482913', target.bundle, client.publicKey, other.publicKey))
      .rejects.toThrow(
        /expected signer key/,
      );
  });

  it('is refused by the client when the data was altered after signing', async () => {
    const target = createOtpTarget({ enclaveSigningPrivateKey: enclave.privateKey });
    const bundle = JSON.parse(target.bundle) as TargetBundle;
    const altered = JSON.stringify({
      ...bundle,
      data: Buffer.from(`{"targetPublic":"${client.publicKeyUncompressed}"}`).toString('hex'),
    });
    await expect(turnkeyCrypto.encryptOtpCodeToBundle('482913', altered, client.publicKey, enclave.publicKey)).rejects
      .toThrow(
        /signature verification failed/,
      );
  });

  it('opens a bundle built with hpkeEncrypt + formatHpkeBuf', async () => {
    const target = createOtpTarget({ enclaveSigningPrivateKey: enclave.privateKey });
    const plainTextBuf = new TextEncoder().encode(
      JSON.stringify({ otp_code: 'A1B2C3', public_key: client.publicKeyUncompressed }),
    );
    const encrypted = turnkeyCrypto.hpkeEncrypt({
      plainTextBuf,
      targetKeyBuf: Buffer.from(target.targetPublicKey, 'hex'),
    });
    const opened = await openEncryptedOtpBundle({
      encryptedOtpBundle: turnkeyCrypto.formatHpkeBuf(encrypted),
      targetPrivateKey: target.targetPrivateKey,
    });
    expect(opened).toEqual({ otpCode: 'A1B2C3', publicKey: client.publicKey });
  });

  it('reports unparseable input as BUNDLE_MALFORMED', async () => {
    const target = createOtpTarget({ enclaveSigningPrivateKey: enclave.privateKey });
    const encrypted = JSON.parse(
      await turnkeyCrypto.encryptOtpCodeToBundle('482913', target.bundle, client.publicKey, enclave.publicKey),
    ) as { encappedPublic: string; ciphertext: string };
    const open = (encryptedOtpBundle: string) =>
      openEncryptedOtpBundle({ encryptedOtpBundle, targetPrivateKey: target.targetPrivateKey });
    for (
      const bad of [
        '',
        'not json',
        '[]',
        '"text"',
        JSON.stringify({ ciphertext: encrypted.ciphertext }),
        JSON.stringify({ encappedPublic: encrypted.encappedPublic }),
        JSON.stringify({ ...encrypted, ciphertext: `${encrypted.ciphertext}g` }),
        JSON.stringify({ ...encrypted, ciphertext: 'abcd' }),
        JSON.stringify({ ...encrypted, encappedPublic: encrypted.encappedPublic.slice(2) }),
        JSON.stringify({ ...encrypted, encappedPublic: `04${'00'.repeat(64)}` }),
        'x'.repeat(10_000),
      ]
    ) {
      await expectRejection(open(bad), 'BUNDLE_MALFORMED');
    }
  });

  it('reports DECRYPTION_FAILED for another target key or a tampered ciphertext', async () => {
    const target = createOtpTarget({ enclaveSigningPrivateKey: enclave.privateKey });
    const other = createOtpTarget({ enclaveSigningPrivateKey: enclave.privateKey });
    const encryptedOtpBundle = await turnkeyCrypto.encryptOtpCodeToBundle(
      '482913',
      target.bundle,
      client.publicKey,
      enclave.publicKey,
    );
    await expectRejection(
      openEncryptedOtpBundle({ encryptedOtpBundle, targetPrivateKey: other.targetPrivateKey }),
      'DECRYPTION_FAILED',
    );
    const parsed = JSON.parse(encryptedOtpBundle) as { encappedPublic: string; ciphertext: string };
    const flipped = (parseInt(parsed.ciphertext.slice(0, 2), 16) ^ 1).toString(16).padStart(2, '0');
    const tampered = JSON.stringify({ ...parsed, ciphertext: flipped + parsed.ciphertext.slice(2) });
    await expectRejection(
      openEncryptedOtpBundle({ encryptedOtpBundle: tampered, targetPrivateKey: target.targetPrivateKey }),
      'DECRYPTION_FAILED',
    );
  });

  it('reports BUNDLE_MALFORMED when the decrypted content lacks the code or a valid key', async () => {
    const target = createOtpTarget({ enclaveSigningPrivateKey: enclave.privateKey });
    for (
      const content of [{ public_key: client.publicKey }, { otp_code: '1', public_key: 'abcd' }, {
        otp_code: 7,
        public_key: client.publicKey,
      }]
    ) {
      const encrypted = turnkeyCrypto.hpkeEncrypt({
        plainTextBuf: new TextEncoder().encode(JSON.stringify(content)),
        targetKeyBuf: Buffer.from(target.targetPublicKey, 'hex'),
      });
      await expectRejection(
        openEncryptedOtpBundle({
          encryptedOtpBundle: turnkeyCrypto.formatHpkeBuf(encrypted),
          targetPrivateKey: target.targetPrivateKey,
        }),
        'BUNDLE_MALFORMED',
      );
    }
  });
});
