import { randomBytes } from 'node:crypto';
import { createSoftwareAuthenticator, type SoftwareAuthenticator } from '../fixtures/software-authenticator';
import { turnkeyCrypto } from '../../services/auth/domain/wallet-crypto/turnkey-client.fixture';
import { newKeyPair, type Api, type KeyPair } from './wallet-client';

export const RP = { rpId: 'wallet.example', origin: 'https://wallet.example' };
export const PASSKEY_ENV = { WALLET_PASSKEY_RP_IDS: RP.rpId, WALLET_PASSKEY_ORIGINS: RP.origin };

/** A registration the caller's own backend would start: its challenge, and the authenticator's attestation. */
export function passkeyRegistration(authenticator: SoftwareAuthenticator, accountId: string, nickname = 'Test phone') {
  const challenge = randomBytes(32).toString('base64url');
  const attestation = authenticator.createCredential({ ...RP, challenge });
  return { type: 'PASSKEY', accountId, nickname, challenge, attestation };
}

/**
 * The session key a client receives sealed to its key: decrypted with @turnkey/crypto, as a key pair that can stamp.
 */
export function sessionKeyFrom(encryptedSessionSigningKey: string, clientKey: KeyPair): KeyPair {
  const privateKey = turnkeyCrypto.decryptCredentialBundle(encryptedSessionSigningKey, clientKey.privateKey);
  const publicKey = Buffer.from(turnkeyCrypto.getPublicKey(privateKey, true)).toString('hex');
  const publicKeyUncompressed = Buffer.from(turnkeyCrypto.getPublicKey(privateKey, false)).toString('hex');
  return { privateKey, publicKey, publicKeyUncompressed };
}

/** Passkey sign-in: challenge bound to a fresh client key, assertion over the hex challenge, verify with Request-Id. */
export async function signInWithPasskey(
  api: Api,
  authenticator: SoftwareAuthenticator,
  credential: { id: string; credentialId: string },
) {
  const clientKey = newKeyPair();
  const challenge = await api(`/auth/credentials/${credential.id}/challenge`, {
    method: 'POST',
    json: { clientPublicKey: clientKey.publicKeyUncompressed },
  });
  if (challenge.status !== 200) {
    throw new Error(`passkey challenge answered ${challenge.status} ${JSON.stringify(challenge.body)}`);
  }
  const assertion = authenticator.getAssertion({
    ...RP,
    challengeHex: challenge.body.challenge,
    credentialId: credential.credentialId,
  });
  const body = { type: 'PASSKEY', assertion };
  const verify = await api(`/auth/credentials/${credential.id}/verify`, {
    method: 'POST',
    json: body,
    headers: { 'Request-Id': challenge.body.requestId },
  });
  if (verify.status !== 200) throw new Error(`passkey verify answered ${verify.status} ${JSON.stringify(verify.body)}`);
  return {
    challenge: challenge.body,
    body,
    session: verify.body,
    key: sessionKeyFrom(verify.body.encryptedSessionSigningKey, clientKey),
  };
}

export { createSoftwareAuthenticator };
