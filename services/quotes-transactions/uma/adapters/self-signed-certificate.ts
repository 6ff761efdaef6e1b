import { createHash, randomBytes } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1';
import { ECParameters, id_ecdsaWithSHA256, id_ecPublicKey } from '@peculiar/asn1-ecc';
import { AsnConvert } from '@peculiar/asn1-schema';
import {
  AlgorithmIdentifier,
  AttributeTypeAndValue,
  AttributeValue,
  Certificate,
  Name,
  RelativeDistinguishedName,
  SubjectPublicKeyInfo,
  TBSCertificate,
  Validity,
  Version,
} from '@peculiar/asn1-x509';

const SECP256K1 = '1.3.132.0.10';
const COMMON_NAME = '2.5.4.3';
const YEAR_MS = 365 * 24 * 3_600_000;

/**
 * A self-signed X.509 certificate (PEM) for a secp256k1 key, the form UMA publishes its keys in
 * (`/.well-known/lnurlpubkey`). The sandbox's own: production takes its chain from configuration.
 */
export function selfSignedCertificate(options: { privateKey: Uint8Array; commonName: string; now: Date }): string {
  const name = new Name([
    new RelativeDistinguishedName([
      new AttributeTypeAndValue({ type: COMMON_NAME, value: new AttributeValue({ utf8String: options.commonName }) }),
    ]),
  ]);
  const signatureAlgorithm = new AlgorithmIdentifier({ algorithm: id_ecdsaWithSHA256 });
  const publicKey = secp256k1.getPublicKey(options.privateKey, false);
  const tbs = new TBSCertificate({
    version: Version.v3,
    serialNumber: serial(),
    signature: signatureAlgorithm,
    issuer: name,
    subject: name,
    validity: new Validity({ notBefore: options.now, notAfter: new Date(options.now.getTime() + YEAR_MS) }),
    subjectPublicKeyInfo: new SubjectPublicKeyInfo({
      algorithm: new AlgorithmIdentifier({
        algorithm: id_ecPublicKey,
        parameters: AsnConvert.serialize(new ECParameters({ namedCurve: SECP256K1 })),
      }),
      subjectPublicKey: publicKey.buffer.slice(
        publicKey.byteOffset,
        publicKey.byteOffset + publicKey.byteLength,
      ) as ArrayBuffer,
    }),
  });
  const digest = createHash('sha256').update(Buffer.from(AsnConvert.serialize(tbs))).digest();
  const signature = secp256k1.sign(digest, options.privateKey).toDERRawBytes();
  const certificate = new Certificate({
    tbsCertificate: tbs,
    signatureAlgorithm,
    signatureValue: Uint8Array.from(signature).buffer as ArrayBuffer,
  });
  const der = Buffer.from(AsnConvert.serialize(certificate)).toString('base64');
  return `-----BEGIN CERTIFICATE-----\n${der.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
}

/** A positive 16-byte serial number (the top bit cleared, so its DER integer is not negative). */
function serial(): ArrayBuffer {
  const bytes = randomBytes(16);
  bytes[0] &= 0x7f;
  bytes[0] |= 0x01;
  return Uint8Array.from(bytes).buffer as ArrayBuffer;
}
