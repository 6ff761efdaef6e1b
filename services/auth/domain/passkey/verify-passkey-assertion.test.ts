import { randomBytes } from 'node:crypto';
import { AppError } from '../../../../lib/errors';
import {
  createSoftwareAuthenticator,
  type GetAssertionOptions,
  type SoftwareAssertion,
} from '../../../../test/fixtures/software-authenticator';
import { createPasskeyChallenge } from './create-passkey-challenge';
import {
  verifyPasskeyAssertion,
  webauthnChallengeFor,
  type StoredPasskey,
  type VerifyPasskeyAssertionInput,
} from './verify-passkey-assertion';
import { verifyPasskeyRegistration } from './verify-passkey-registration';

const RP_ID = 'wallet.example.com';
const ORIGIN = 'https://wallet.example.com';
const config = { rpIds: [RP_ID], origins: [ORIGIN], requireUserVerification: true };

async function failureOf(promise: Promise<unknown>): Promise<{ code: string; reason: unknown; cause: string }> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof AppError) return { code: err.code, reason: err.details?.reason, cause: String(err.cause ?? '') };
    throw err;
  }
  throw new Error('expected a rejection');
}

async function registered() {
  const authenticator = createSoftwareAuthenticator();
  const registration = randomBytes(32).toString('base64url');
  const attestation = authenticator.createCredential({
    rpId: RP_ID,
    origin: ORIGIN,
    challenge: registration,
    userHandle: 'dXNlci0x',
  });
  const credential: StoredPasskey = await verifyPasskeyRegistration({
    challenge: registration,
    attestation,
    ...config,
  });
  const challengeHex = createPasskeyChallenge();
  const assert = (options: Partial<GetAssertionOptions> = {}) =>
    authenticator.getAssertion({
      rpId: RP_ID,
      origin: ORIGIN,
      challengeHex,
      credentialId: credential.credentialId,
      ...options,
    });
  const verify = (assertion: SoftwareAssertion, overrides: Partial<VerifyPasskeyAssertionInput> = {}) =>
    verifyPasskeyAssertion({ challengeHex, assertion, credential, ...config, ...overrides });
  return { credential, challengeHex, assert, verify };
}

describe('createPasskeyChallenge', () => {
  it('returns 32 random bytes as lowercase hex', () => {
    const a = createPasskeyChallenge();
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(createPasskeyChallenge()).not.toBe(a);
  });
});

describe('verifyPasskeyAssertion', () => {
  it('verifies an assertion and returns the new counter', async () => {
    const { credential, assert, verify } = await registered();
    const assertion = assert();
    expect(assertion.userHandle).toBe('dXNlci0x');
    await expect(verify(assertion)).resolves.toEqual({ newCounter: 1 });
    await expect(verify(assert(), { credential: { ...credential, counter: 1 } })).resolves.toEqual({ newCounter: 2 });
  });

  it('uses base64url(utf8(hex)) as the WebAuthn challenge; the raw hex bytes fail', async () => {
    const { assert, verify } = await registered();
    expect(webauthnChallengeFor('00ff')).toBe(Buffer.from('00ff').toString('base64url'));
    const raw = await failureOf(verify(assert({ challengeEncoding: 'hex-bytes' })));
    expect(raw).toMatchObject({ code: 'WALLET_SIGNATURE_INVALID', reason: 'ASSERTION_REJECTED' });
    expect(raw.cause).toMatch(/challenge/);
    await expect(verify(assert({ challengeEncoding: 'utf8' }))).resolves.toEqual({ newCounter: 2 });
  });

  it.each<[string, Partial<GetAssertionOptions>, RegExp]>([
    ['wrong origin', { origin: 'https://evil.example' }, /origin/],
    ['wrong rpId', { rpId: 'evil.example' }, /RP ID/],
    ['wrong challenge', { challengeHex: createPasskeyChallenge() }, /challenge/],
    // Every earlier check passes, so the library reports verified: false without an error.
    ['tampered signature', { tamperSignature: true }, /^$/],
    ['missing user verification', { userVerified: false }, /verification/],
    ['missing user presence', { userPresent: false }, /present/],
    ['registration type', { clientDataType: 'webauthn.create' }, /type/],
  ])('refuses a %s as WALLET_SIGNATURE_INVALID', async (_name, options, cause) => {
    const { assert, verify } = await registered();
    const outcome = await failureOf(verify(assert(options)));
    expect(outcome).toMatchObject({ code: 'WALLET_SIGNATURE_INVALID', reason: 'ASSERTION_REJECTED' });
    expect(outcome.cause).toMatch(cause);
  });

  it('refuses a replayed assertion and a counter that did not increase', async () => {
    const { credential, assert, verify } = await registered();
    const assertion = assert();
    const { newCounter } = await verify(assertion);
    const stored = { credential: { ...credential, counter: newCounter } };
    const replay = await failureOf(verify(assertion, stored));
    expect(replay).toMatchObject({ code: 'WALLET_SIGNATURE_INVALID', reason: 'ASSERTION_REJECTED' });
    expect(replay.cause).toMatch(/counter/);
    const same = await failureOf(verify(assert({ counterOverride: newCounter }), stored));
    expect(same).toMatchObject({ code: 'WALLET_SIGNATURE_INVALID' });
    expect(same.cause).toMatch(/counter/);
  });

  it('accepts authenticators that always report counter 0', async () => {
    const { assert, verify } = await registered();
    await expect(verify(assert({ counterOverride: 0 }))).resolves.toEqual({ newCounter: 0 });
  });

  it('accepts a missing user verification when it is not required', async () => {
    const { assert, verify } = await registered();
    const assertion = assert({ userVerified: false });
    await expect(verify(assertion, { requireUserVerification: false })).resolves.toEqual({ newCounter: 1 });
  });

  it('refuses an assertion by another passkey than the credential', async () => {
    const first = await registered();
    const second = await registered();
    const outcome = await failureOf(first.verify(second.assert({ challengeHex: first.challengeHex })));
    expect(outcome).toMatchObject({ code: 'WALLET_SIGNATURE_INVALID', reason: 'ASSERTION_REJECTED' });
  });

  it('refuses malformed assertion members as INVALID_INPUT', async () => {
    const { assert, verify } = await registered();
    const assertion = assert();
    for (
      const change of [{ signature: 'not base64url!' }, { authenticatorData: '' }, { userHandle: 42 }, {
        clientDataJson: undefined,
      }]
    ) {
      const outcome = await failureOf(verify({ ...assertion, ...change } as never));
      expect(outcome).toMatchObject({ code: 'INVALID_INPUT', reason: 'MALFORMED' });
    }
  });
});
