import { randomBytes } from 'node:crypto';

/**
 * A fresh passkey authentication challenge: 32 random bytes as lowercase hex. The client uses the
 * UTF-8 bytes of this string as the WebAuthn challenge (PasskeyAuthChallenge in the interface).
 */
export function createPasskeyChallenge(): string {
  return randomBytes(32).toString('hex');
}
