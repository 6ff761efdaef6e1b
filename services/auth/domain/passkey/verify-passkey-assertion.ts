import type { VerifiedAuthenticationResponse, WebAuthnCredential } from '@simplewebauthn/server';
import { AppError } from '../../../../lib/errors';
import { MAX_CHARS, passkeyFailure, requireBase64url, requireConfigured } from './passkey-failure';

// Loaded on the first passkey check, not at start (the library is a good part of the services' module loading).
const webauthn = () => require('@simplewebauthn/server') as typeof import('@simplewebauthn/server');

export interface PasskeyAssertion {
  credentialId: string;
  clientDataJson: string;
  authenticatorData: string;
  signature: string;
  userHandle?: string;
}

export interface StoredPasskey {
  credentialId: string;
  /** COSE public key, base64url, as returned by verifyPasskeyRegistration. */
  publicKey: string;
  counter: number;
}

export interface VerifyPasskeyAssertionInput {
  /** The lowercase hex challenge this service issued (createPasskeyChallenge). */
  challengeHex: string;
  assertion: PasskeyAssertion;
  credential: StoredPasskey;
  rpIds: readonly string[];
  origins: readonly string[];
  requireUserVerification: boolean;
}

const LOWER_HEX = /^[0-9a-f]+$/;

/** The client UTF-8 encodes the hex string and uses those bytes as the WebAuthn challenge. */
export function webauthnChallengeFor(challengeHex: string): string {
  return Buffer.from(challengeHex, 'utf8').toString('base64url');
}

function storedCredential(credential: StoredPasskey): WebAuthnCredential {
  const valid = typeof credential?.credentialId === 'string'
    && typeof credential.publicKey === 'string'
    && /^[A-Za-z0-9_-]+$/.test(credential.publicKey)
    && Number.isSafeInteger(credential.counter)
    && credential.counter >= 0;
  if (!valid) throw new AppError('INTERNAL_ERROR', 'stored passkey credential is malformed');
  const publicKey = new Uint8Array(Buffer.from(credential.publicKey, 'base64url'));
  return { id: credential.credentialId, publicKey, counter: credential.counter };
}

/** Verifies a WebAuthn assertion against a registered passkey; the caller stores `newCounter`. */
export async function verifyPasskeyAssertion(input: VerifyPasskeyAssertionInput): Promise<{ newCounter: number }> {
  requireConfigured(input.rpIds, input.origins);
  if (typeof input.challengeHex !== 'string' || !LOWER_HEX.test(input.challengeHex)) {
    throw new AppError('INTERNAL_ERROR', 'passkey challenge must be lowercase hex');
  }
  const credential = storedCredential(input.credential);
  const assertion: Partial<PasskeyAssertion> = input.assertion ?? {};
  const credentialId = requireBase64url(assertion.credentialId, 'assertion.credentialId', MAX_CHARS.credentialId);
  const response = {
    clientDataJSON: requireBase64url(assertion.clientDataJson, 'assertion.clientDataJson', MAX_CHARS.clientDataJson),
    authenticatorData: requireBase64url(
      assertion.authenticatorData,
      'assertion.authenticatorData',
      MAX_CHARS.authenticatorData,
    ),
    signature: requireBase64url(assertion.signature, 'assertion.signature', MAX_CHARS.signature),
    ...(assertion.userHandle !== undefined && {
      userHandle: requireBase64url(assertion.userHandle, 'assertion.userHandle', MAX_CHARS.userHandle),
    }),
  };
  if (credentialId !== credential.id) {
    throw passkeyFailure('ASSERTION_REJECTED', 'assertion is from a different passkey than the credential');
  }

  let result: VerifiedAuthenticationResponse;
  try {
    // Also refuses a counter that did not increase while either counter is non-zero (replay).
    result = await webauthn().verifyAuthenticationResponse({
      response: { id: credentialId, rawId: credentialId, type: 'public-key', clientExtensionResults: {}, response },
      expectedChallenge: webauthnChallengeFor(input.challengeHex),
      expectedOrigin: [...input.origins],
      expectedRPID: [...input.rpIds],
      credential,
      requireUserVerification: input.requireUserVerification,
    });
  } catch (err) {
    throw passkeyFailure('ASSERTION_REJECTED', 'passkey assertion could not be verified', err);
  }
  if (!result.verified) throw passkeyFailure('ASSERTION_REJECTED', 'passkey assertion signature is invalid');
  return { newCounter: result.authenticationInfo.newCounter };
}
