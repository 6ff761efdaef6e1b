import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';

// Loaded on the first passkey operation, not at start (the library and its certificate parsers are a
// good part of the services' module loading).
const webauthn = () => require('@simplewebauthn/server') as typeof import('@simplewebauthn/server');

export interface RelyingParty {
  id: string;
  name: string;
  origins: readonly string[];
}

export interface StoredScaPasskey {
  credentialId: string;
  /** COSE public key, base64url. */
  publicKey: string;
  counter: number;
}

/**
 * The challenge is issued as lowercase hex and the WebAuthn challenge is its UTF-8 bytes (the rule
 * the embedded-wallet passkeys follow), so a client signs what the options carry unmodified.
 */
const challengeBytes = (challengeHex: string) => new Uint8Array(Buffer.from(challengeHex, 'utf8'));
export const webauthnChallenge = (challengeHex: string) => Buffer.from(challengeHex, 'utf8').toString('base64url');

export async function registrationOptions(
  rp: RelyingParty,
  user: { id: string; name: string },
  challengeHex: string,
  exclude: string[],
) {
  return webauthn().generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.name,
    userID: new Uint8Array(Buffer.from(user.id, 'utf8')),
    challenge: challengeBytes(challengeHex),
    attestationType: 'none',
    excludeCredentials: exclude.map((id) => ({ id })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
  });
}

export async function assertionOptions(rp: RelyingParty, challengeHex: string, credentialIds: string[]) {
  return webauthn().generateAuthenticationOptions({
    rpID: rp.id,
    challenge: challengeBytes(challengeHex),
    allowCredentials: credentialIds.map((id) => ({ id })),
    userVerification: 'required',
  });
}

/** The verified credential, or undefined for one that does not verify (never throws on bad input). */
export async function verifiedRegistration(
  rp: RelyingParty,
  credential: unknown,
  origin: string,
  challengeHex: string,
): Promise<StoredScaPasskey | undefined> {
  if (!rp.origins.includes(origin)) return undefined;
  try {
    const result = await webauthn().verifyRegistrationResponse({
      response: credential as RegistrationResponseJSON,
      expectedChallenge: webauthnChallenge(challengeHex),
      expectedOrigin: origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
    if (!result.verified || !result.registrationInfo) return undefined;
    const c = result.registrationInfo.credential;
    return { credentialId: c.id, publicKey: Buffer.from(c.publicKey).toString('base64url'), counter: c.counter };
  } catch {
    return undefined;
  }
}

/** A passkey assertion made at `origin` for the challenge `challengeHex`, and the passkey it claims to be from. */
export interface PasskeyAssertion {
  rp: RelyingParty;
  assertion: unknown;
  origin: string;
  challengeHex: string;
  passkey: StoredScaPasskey;
}

/** The new signature counter, or undefined for an assertion that does not verify. */
export async function verifiedAssertion(
  { rp, assertion, origin, challengeHex, passkey }: PasskeyAssertion,
): Promise<number | undefined> {
  if (!rp.origins.includes(origin)) return undefined;
  try {
    const result = await webauthn().verifyAuthenticationResponse({
      response: assertion as AuthenticationResponseJSON,
      expectedChallenge: webauthnChallenge(challengeHex),
      expectedOrigin: origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
        counter: passkey.counter,
      },
    });
    return result.verified ? result.authenticationInfo.newCounter : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the assertion's authenticator data has the UV flag (bit 2 of the flags byte after the
 * 32-byte RP id hash). Read before the signature is checked, only to refuse a UV-less assertion with
 * a clear error; the signature check then requires UV again (the flag is signed).
 */
export function assertionHasUserVerification(assertion: unknown): boolean {
  const data = (assertion as { response?: { authenticatorData?: unknown } } | null)?.response?.authenticatorData;
  if (typeof data !== 'string') return false;
  const bytes = Buffer.from(data, 'base64url');
  return bytes.length > 32 && (bytes[32] & 0x04) !== 0;
}

/** The credential id an assertion names, if it names one. */
export function assertionCredentialId(assertion: unknown): string | undefined {
  const id = (assertion as { id?: unknown } | null)?.id;
  return typeof id === 'string' ? id : undefined;
}
