import type { VerifiedRegistrationResponse } from '@simplewebauthn/server';
import { MAX_CHARS, passkeyFailure, requireBase64url, requireConfigured } from './passkey-failure';

// Loaded on the first passkey check, not at start (the library is a good part of the services' module loading).
const webauthn = () => require('@simplewebauthn/server') as typeof import('@simplewebauthn/server');

export interface PasskeyAttestation {
  credentialId: string;
  clientDataJson: string;
  attestationObject: string;
  transports?: string[];
}

export interface VerifyPasskeyRegistrationInput {
  /** The registration challenge the caller's backend issued, base64url as sent. */
  challenge: string;
  attestation: PasskeyAttestation;
  rpIds: readonly string[];
  origins: readonly string[];
  requireUserVerification: boolean;
}

export interface RegisteredPasskey {
  credentialId: string;
  /** COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
}

const MAX_TRANSPORTS = 8;

function requireTransports(value: unknown): string[] {
  if (value === undefined) return [];
  if (
    !Array.isArray(value)
    || value.length > MAX_TRANSPORTS
    || !value.every((t) => typeof t === 'string' && t.length > 0 && t.length <= 32)
  ) {
    throw passkeyFailure('MALFORMED', `attestation.transports must be at most ${MAX_TRANSPORTS} short strings`);
  }
  return [...value];
}

export async function verifyPasskeyRegistration(input: VerifyPasskeyRegistrationInput): Promise<RegisteredPasskey> {
  requireConfigured(input.rpIds, input.origins);
  const attestation: Partial<PasskeyAttestation> = input.attestation ?? {};
  const challenge = requireBase64url(input.challenge, 'challenge', MAX_CHARS.challenge);
  const credentialId = requireBase64url(attestation.credentialId, 'attestation.credentialId', MAX_CHARS.credentialId);
  const clientDataJSON = requireBase64url(
    attestation.clientDataJson,
    'attestation.clientDataJson',
    MAX_CHARS.clientDataJson,
  );
  const attestationObject = requireBase64url(
    attestation.attestationObject,
    'attestation.attestationObject',
    MAX_CHARS.attestationObject,
  );
  const transports = requireTransports(attestation.transports);

  let result: VerifiedRegistrationResponse;
  try {
    result = await webauthn().verifyRegistrationResponse({
      response: {
        id: credentialId,
        rawId: credentialId,
        type: 'public-key',
        clientExtensionResults: {},
        // Our API spells it clientDataJson; the bytes are WebAuthn's clientDataJSON.
        response: { clientDataJSON, attestationObject, transports },
      },
      expectedChallenge: challenge,
      expectedOrigin: [...input.origins],
      expectedRPID: [...input.rpIds],
      requireUserVerification: input.requireUserVerification,
    });
  } catch (err) {
    throw passkeyFailure('ATTESTATION_REJECTED', 'passkey attestation could not be verified', err);
  }
  if (!result.verified) throw passkeyFailure('ATTESTATION_REJECTED', 'passkey attestation could not be verified');

  const { credential } = result.registrationInfo;
  // The library does not compare the declared id with the one inside the signed authenticator data.
  if (credential.id !== credentialId) {
    throw passkeyFailure('ATTESTATION_REJECTED', 'attestation.credentialId does not match the attested credential');
  }
  return {
    credentialId,
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports,
  };
}
