import { X509Certificate } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1';
import { getPubKeyResponse } from '@uma-sdk/core';
import { selfSignedCertificate } from './self-signed-certificate';

describe('selfSignedCertificate', () => {
  const privateKey = secp256k1.utils.randomSecretKey();
  const pem = selfSignedCertificate({
    privateKey,
    commonName: 'localhost:8080',
    now: new Date('2026-01-01T00:00:00Z'),
  });

  it('is a certificate of the key, signed by itself, valid for a year', () => {
    const certificate = new X509Certificate(pem);
    expect(certificate.subject).toBe('CN=localhost:8080');
    expect(certificate.verify(certificate.publicKey)).toBe(true);
    expect(certificate.publicKey.asymmetricKeyDetails?.namedCurve).toBe('secp256k1');
    expect(new Date(certificate.validTo).getTime() - new Date(certificate.validFrom).getTime()).toBe(
      365 * 24 * 3_600_000,
    );
  });

  it('gives the UMA SDK the key it certifies', () => {
    const keys = getPubKeyResponse({ signingCertChainPem: pem, encryptionCertChainPem: pem });
    expect(Buffer.from(keys.getSigningPubKey())).toEqual(Buffer.from(secp256k1.getPublicKey(privateKey, false)));
  });
});
