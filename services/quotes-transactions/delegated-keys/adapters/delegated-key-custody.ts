import { p256 } from '@noble/curves/nist';
import type { Sealer } from '../../../../lib/sealing/aes-gcm-sealer';
import type { KeyCustody } from '../app/delegated-keys';

/**
 * Delegated keys generated and kept here: a fresh P-256 key pair per delegated key, the private
 * half sealed (AES-GCM, bound to the key's id) and never answered, logged or sent anywhere.
 */
export function createDelegatedKeyCustody(sealer: Sealer): KeyCustody {
  return {
    generate(keyId) {
      const secret = p256.utils.randomSecretKey();
      const publicKey = Buffer.from(p256.getPublicKey(secret, true)).toString('hex');
      const sealedPrivateKey = sealer.seal(Buffer.from(secret).toString('hex'), keyId);
      secret.fill(0);
      return { publicKey, sealedPrivateKey };
    },
  };
}
