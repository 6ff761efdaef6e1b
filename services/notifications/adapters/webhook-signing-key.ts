import {
  createECDH,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  hkdfSync,
  type KeyObject,
} from 'node:crypto';
import { ConfigError } from '../../../lib/config';

export const SIGNING_KEY_VARIABLE = 'WEBHOOK_SIGNING_PRIVATE_KEY';

export interface WebhookSigningKey {
  privateKey: KeyObject;
  /** SPKI PEM: what platforms verify with. */
  publicKeyPem: string;
  /** Uncompressed SEC1 point (04 ‖ x ‖ y), hex. */
  publicKeyHex: string;
  /** Derived from the private key: what each endpoint's Standard Webhooks secret is derived from. */
  secretSeed: Buffer;
  /** True when no key was configured and one was made for this process. */
  generated: boolean;
}

function fromHex(hex: string): KeyObject {
  const ecdh = createECDH('prime256v1');
  try {
    ecdh.setPrivateKey(Buffer.from(hex, 'hex'));
  } catch {
    throw new ConfigError(SIGNING_KEY_VARIABLE, 'is not a valid P-256 private key');
  }
  const point = ecdh.getPublicKey();
  const b64 = (b: Buffer) => b.toString('base64url');
  return createPrivateKey({
    format: 'jwk',
    key: {
      kty: 'EC',
      crv: 'P-256',
      d: b64(ecdh.getPrivateKey()),
      x: b64(point.subarray(1, 33)),
      y: b64(point.subarray(33, 65)),
    },
  });
}

function fromPem(pem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem.replace(/\\n/g, '\n'));
  } catch {
    throw new ConfigError(SIGNING_KEY_VARIABLE, 'is not a readable PEM private key');
  }
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new ConfigError(SIGNING_KEY_VARIABLE, 'must be a P-256 (prime256v1) EC key');
  }
  return key;
}

/** The key webhooks are signed with: PEM (PKCS#8 or SEC1) or 32 bytes of hex; generated when unset. */
export function loadWebhookSigningKey(value: string | undefined): WebhookSigningKey {
  const text = value?.trim();
  let privateKey: KeyObject;
  if (!text) privateKey = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
  else if (/^(0x)?[0-9a-fA-F]{64}$/.test(text)) privateKey = fromHex(text.replace(/^0x/, ''));
  else if (text.includes('-----BEGIN')) privateKey = fromPem(text);
  else throw new ConfigError(SIGNING_KEY_VARIABLE, 'must be a PEM private key or 32 bytes of hex');
  const publicKey = createPublicKey(privateKey);
  const jwk = publicKey.export({ format: 'jwk' });
  const d = Buffer.from(privateKey.export({ format: 'jwk' }).d!, 'base64url');
  const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]);
  return {
    privateKey,
    publicKeyPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    publicKeyHex: point.toString('hex'),
    secretSeed: Buffer.from(hkdfSync('sha256', d, Buffer.alloc(0), 'grid-payments standard-webhooks v1', 32)),
    generated: !text,
  };
}
