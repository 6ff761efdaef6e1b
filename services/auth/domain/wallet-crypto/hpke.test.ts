import { hpkeOpen, hpkeSeal } from './hpke';
import { generateP256KeyPair } from './p256-keys';
import { turnkeyCrypto } from './turnkey-client.fixture';
import { expectRejection } from './expect-failure.fixture';

const plaintext = new TextEncoder().encode('{"otp_code":"123456"}');

describe('HPKE (turnkey_hpke profile)', () => {
  const recipient = generateP256KeyPair();

  it('round-trips with compressed or uncompressed recipient keys', async () => {
    for (const recipientPublicKey of [recipient.publicKey, recipient.publicKeyUncompressed]) {
      const sealed = await hpkeSeal({ plaintext, recipientPublicKey });
      expect(sealed.encappedPublic).toHaveLength(65);
      expect(sealed.encappedPublic[0]).toBe(4);
      expect(sealed.ciphertext).toHaveLength(plaintext.length + 16);
      expect(await hpkeOpen({ ...sealed, recipientPrivateKey: recipient.privateKey })).toEqual(plaintext);
    }
  });

  it('is decrypted by the client library', async () => {
    const { encappedPublic, ciphertext } = await hpkeSeal({
      plaintext,
      recipientPublicKey: recipient.publicKeyUncompressed,
    });
    const opened = turnkeyCrypto.hpkeDecrypt({
      ciphertextBuf: ciphertext,
      encappedKeyBuf: encappedPublic,
      receiverPriv: recipient.privateKey,
    });
    expect(Buffer.from(opened)).toEqual(Buffer.from(plaintext));
  });

  it("opens the client library's ciphertext, with a compressed or uncompressed enc", async () => {
    const encrypted = turnkeyCrypto.hpkeEncrypt({
      plainTextBuf: plaintext,
      targetKeyBuf: Buffer.from(recipient.publicKeyUncompressed, 'hex'),
    });
    const compressedEnc = encrypted.slice(0, 33);
    const ciphertext = encrypted.slice(33);
    expect(await hpkeOpen({ encappedPublic: compressedEnc, ciphertext, recipientPrivateKey: recipient.privateKey }))
      .toEqual(plaintext);
    const formatted = JSON.parse(turnkeyCrypto.formatHpkeBuf(encrypted)) as {
      encappedPublic: string;
      ciphertext: string;
    };
    const opened = await hpkeOpen({
      encappedPublic: Buffer.from(formatted.encappedPublic, 'hex'),
      ciphertext: Buffer.from(formatted.ciphertext, 'hex'),
      recipientPrivateKey: recipient.privateKey,
    });
    expect(opened).toEqual(plaintext);
  });

  it('fails with the wrong key, a tampered ciphertext or a bad encapsulated key', async () => {
    const sealed = await hpkeSeal({ plaintext, recipientPublicKey: recipient.publicKey });
    await expectRejection(
      hpkeOpen({ ...sealed, recipientPrivateKey: generateP256KeyPair().privateKey }),
      'DECRYPTION_FAILED',
    );
    const tampered = Uint8Array.from(sealed.ciphertext);
    tampered[0] ^= 1;
    await expectRejection(
      hpkeOpen({ ...sealed, ciphertext: tampered, recipientPrivateKey: recipient.privateKey }),
      'DECRYPTION_FAILED',
    );
    await expectRejection(
      hpkeOpen({
        ...sealed,
        encappedPublic: sealed.encappedPublic.slice(1),
        recipientPrivateKey: recipient.privateKey,
      }),
      'DECRYPTION_FAILED',
    );
    await expectRejection(hpkeOpen({ ...sealed, recipientPrivateKey: 'beef' }), 'INVALID_PRIVATE_KEY');
    await expectRejection(hpkeSeal({ plaintext, recipientPublicKey: '04abcd' }), 'INVALID_PUBLIC_KEY');
  });
});
