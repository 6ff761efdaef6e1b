import { randomBytes } from 'node:crypto';
import { AppError } from '../../../../lib/errors';
import { createSoftwareAuthenticator } from '../../../../test/fixtures/software-authenticator';
import { verifyPasskeyRegistration, type VerifyPasskeyRegistrationInput } from './verify-passkey-registration';

const RP_ID = 'wallet.example.com';
const ORIGIN = 'https://wallet.example.com';

async function failureOf(promise: Promise<unknown>): Promise<{ code: string; reason: unknown; cause: string }> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof AppError) return { code: err.code, reason: err.details?.reason, cause: String(err.cause ?? '') };
    throw err;
  }
  throw new Error('expected a rejection');
}

function setup(overrides: { rpId?: string; origin?: string; userVerified?: boolean; signedChallenge?: string } = {}) {
  const authenticator = createSoftwareAuthenticator();
  const challenge = randomBytes(32).toString('base64url');
  const attestation = authenticator.createCredential({
    rpId: overrides.rpId ?? RP_ID,
    origin: overrides.origin ?? ORIGIN,
    challenge: overrides.signedChallenge ?? challenge,
    userVerified: overrides.userVerified,
  });
  const input: VerifyPasskeyRegistrationInput = {
    challenge,
    attestation,
    rpIds: [RP_ID],
    origins: [ORIGIN],
    requireUserVerification: true,
  };
  return { authenticator, input };
}

describe('verifyPasskeyRegistration', () => {
  it('returns the credential id, the COSE public key, the counter and the transports', async () => {
    const { input } = setup();
    const result = await verifyPasskeyRegistration(input);
    expect(result.credentialId).toBe(input.attestation.credentialId);
    expect(result.counter).toBe(0);
    expect(result.transports).toEqual(['internal', 'hybrid']);
    // COSE EC2 map (5 entries) starting with kty = 2.
    expect(Buffer.from(result.publicKey, 'base64url').subarray(0, 3)).toEqual(Buffer.from([0xa5, 0x01, 0x02]));
  });

  it('accepts any configured rpId and origin and a padded challenge', async () => {
    const { input } = setup({ rpId: 'other.example', origin: 'https://other.example' });
    const result = await verifyPasskeyRegistration({
      ...input,
      challenge: `${input.challenge}=`,
      rpIds: [RP_ID, 'other.example'],
      origins: [ORIGIN, 'https://other.example'],
    });
    expect(result.credentialId).toBe(input.attestation.credentialId);
  });

  it.each([
    ['wrong origin', { origin: 'https://evil.example' }, /origin/],
    ['wrong rpId', { rpId: 'evil.example' }, /RP ID/],
    ['wrong challenge', { signedChallenge: randomBytes(32).toString('base64url') }, /challenge/],
    ['missing user verification', { userVerified: false }, /verification/],
  ])('refuses a %s as INVALID_INPUT', async (_name, overrides, cause) => {
    const { input } = setup(overrides);
    const outcome = await failureOf(verifyPasskeyRegistration(input));
    expect(outcome).toMatchObject({ code: 'INVALID_INPUT', reason: 'ATTESTATION_REJECTED' });
    expect(outcome.cause).toMatch(cause);
  });

  it('accepts a registration without user verification when it is not required', async () => {
    const { input } = setup({ userVerified: false });
    await expect(verifyPasskeyRegistration({ ...input, requireUserVerification: false })).resolves.toBeDefined();
  });

  it('refuses a declared credential id that differs from the attested one', async () => {
    const { input } = setup();
    const other = randomBytes(32).toString('base64url');
    const attestation = { ...input.attestation, credentialId: other };
    const outcome = await failureOf(verifyPasskeyRegistration({ ...input, attestation }));
    expect(outcome).toMatchObject({ code: 'INVALID_INPUT', reason: 'ATTESTATION_REJECTED' });
  });

  it('refuses malformed members as INVALID_INPUT', async () => {
    const { input } = setup();
    const broken: Array<Partial<VerifyPasskeyRegistrationInput>> = [
      { challenge: 'not base64url!' },
      { attestation: { ...input.attestation, clientDataJson: '' } },
      { attestation: { ...input.attestation, attestationObject: undefined as unknown as string } },
      { attestation: { ...input.attestation, transports: 'usb' as unknown as string[] } },
      { attestation: undefined as never },
    ];
    for (const change of broken) {
      expect(await failureOf(verifyPasskeyRegistration({ ...input, ...change }))).toMatchObject({
        code: 'INVALID_INPUT',
        reason: 'MALFORMED',
      });
    }
  });

  it('refuses to run without configured relying-party ids or origins', async () => {
    const { input } = setup();
    expect((await failureOf(verifyPasskeyRegistration({ ...input, rpIds: [] }))).code).toBe('INTERNAL_ERROR');
  });
});
