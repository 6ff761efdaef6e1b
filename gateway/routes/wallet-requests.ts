import type { PasskeyAssertion, PasskeyAttestation } from '../../gen/auth/v1/wallet_auth';
import type { AuthMethodType } from '../../gen/auth/v1/wallet_records';
import { RestBody } from './rest-body';

/*
 * REST bodies of the embedded-wallet endpoints → the members of their request messages (the
 * route adds the path id and the signature headers). An absent body reads as an empty one where
 * the endpoint allows it.
 */

const attestation = (b: RestBody): PasskeyAttestation => ({
  credentialId: b.string('credentialId'),
  clientDataJson: b.string('clientDataJson'),
  attestationObject: b.string('attestationObject'),
  transports: b.strings('transports'),
});

const assertion = (b: RestBody): PasskeyAssertion => ({
  credentialId: b.string('credentialId'),
  clientDataJson: b.string('clientDataJson'),
  authenticatorData: b.string('authenticatorData'),
  signature: b.string('signature'),
  userHandle: b.string('userHandle'),
});

function read<T>(body: unknown, members: (b: RestBody) => T, message: string, optional = false): T {
  const b = RestBody.of(optional && body === undefined ? {} : body);
  const out = members(b);
  b.done(message);
  return out;
}

export const createCredentialBody = (body: unknown) =>
  read(body, (b) => ({
    accountId: b.string('accountId'),
    type: b.string<AuthMethodType>('type'),
    nickname: b.string('nickname'),
    challenge: b.string('challenge'),
    attestation: b.object('attestation', attestation),
    oidcToken: b.string('oidcToken'),
  }), 'Invalid credential');

export const verifyCredentialBody = (body: unknown) =>
  read(body, (b) => ({
    type: b.string<AuthMethodType>('type'),
    encryptedOtpBundle: b.string('encryptedOtpBundle'),
    oidcToken: b.string('oidcToken'),
    clientPublicKey: b.string('clientPublicKey'),
    assertion: b.object('assertion', assertion),
  }), 'Invalid verification');

/** Challenge, refresh and export: at most the client's public key. */
export const clientKeyBody = (body: unknown, optional: boolean) =>
  read(body, (b) => ({ clientPublicKey: b.string('clientPublicKey') }), 'Invalid request', optional);

export const walletPrivacyBody = (body: unknown) =>
  read(body, (b) => ({ privateEnabled: b.boolean('privateEnabled') }), 'Invalid wallet privacy');

/** Revocations carry nothing but their path id and signature; any JSON object body is accepted and ignored. */
export const emptyBody = (body: unknown) => read(body, () => ({}), 'Invalid request', true);
