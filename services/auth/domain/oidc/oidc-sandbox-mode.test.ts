import { AppError } from '../../../../lib/errors';
import { createOidcVerifier, oidcNonceFor, type OidcVerifyOptions } from './create-oidc-verifier';

const ISS = 'https://accounts.example.com';
const AUD = 'client-app';
const CLIENT_KEY = '04' + 'ab'.repeat(64);
const NOW = 1_760_000_000_000;
const nowSec = Math.floor(NOW / 1000);

function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}
function token(claims: Record<string, unknown>, signature = '', header: object = { alg: 'none', typ: 'JWT' }): string {
  return `${b64(header)}.${
    b64({ iss: ISS, aud: AUD, sub: 'user-1', iat: nowSec, exp: nowSec + 300, ...claims })
  }.${signature}`;
}
async function failureOf(promise: Promise<unknown>): Promise<{ code: string; reason: unknown }> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof AppError) return { code: err.code, reason: err.details?.reason };
    throw err;
  }
  throw new Error('expected a rejection');
}

const fetchImpl = jest.fn(() => Promise.reject(new Error('sandbox must not fetch')));
const verifier = createOidcVerifier({ now: () => NOW, fetchImpl });
const identity = { iss: ISS, aud: AUD, sub: 'user-1' };
const verifyOptions: OidcVerifyOptions = {
  allowedIssuers: [ISS],
  allowedAudiences: [AUD],
  mode: 'sandbox',
  expectedNonce: oidcNonceFor(CLIENT_KEY),
  expectedIdentity: identity,
};

describe('createOidcVerifier (sandbox)', () => {
  afterEach(() => expect(fetchImpl).not.toHaveBeenCalled());

  it('computes the nonce as lowercase hex SHA-256 of the UTF-8 clientPublicKey', () => {
    expect(oidcNonceFor('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('accepts an unsigned or garbage-signed token with the matching nonce and a fresh iat', async () => {
    const nonce = oidcNonceFor(CLIENT_KEY);
    for (const t of [token({ nonce }), token({ nonce }, 'Z2FyYmFnZQ', { alg: 'RS256', kid: 'whatever' })]) {
      await expect(verifier.verify(t, verifyOptions)).resolves.toEqual({ ...identity, iat: nowSec, nonce });
    }
  });

  it('accepts a registration token (no identity yet, no nonce) and returns the email', async () => {
    const options = { allowedIssuers: [ISS], allowedAudiences: [AUD], mode: 'sandbox' as const };
    await expect(verifier.verify(token({ email: 'a@example.com' }), options)).resolves.toMatchObject({
      email: 'a@example.com',
    });
  });

  it('refuses a missing or different nonce', async () => {
    for (const nonce of [undefined, oidcNonceFor(CLIENT_KEY + ' '), oidcNonceFor(CLIENT_KEY).toUpperCase()]) {
      expect(await failureOf(verifier.verify(token({ nonce }), verifyOptions))).toEqual({
        code: 'UNAUTHORIZED',
        reason: 'NONCE_MISMATCH',
      });
    }
  });

  it('still checks freshness, issuer, audience and identity', async () => {
    const nonce = oidcNonceFor(CLIENT_KEY);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ iat: nowSec - 61 }, 'INVALID_INPUT', 'STALE'],
      [{ iat: nowSec + 60 }, 'INVALID_INPUT', 'ISSUED_IN_FUTURE'],
      [{ exp: nowSec - 10 }, 'INVALID_INPUT', 'EXPIRED'],
      [{ iat: undefined }, 'INVALID_INPUT', 'MALFORMED'],
      [{ iss: 'https://evil.example' }, 'INVALID_INPUT', 'ISSUER_NOT_ALLOWED'],
      [{ aud: 'other' }, 'INVALID_INPUT', 'AUDIENCE_NOT_ALLOWED'],
      [{ sub: 'user-2' }, 'UNAUTHORIZED', 'IDENTITY_MISMATCH'],
    ];
    for (const [claims, code, reason] of cases) {
      expect(await failureOf(verifier.verify(token({ nonce, ...claims }), verifyOptions))).toEqual({ code, reason });
    }
  });

  it('still requires the JWT shape', async () => {
    const payload = b64({ ...identity, iat: nowSec, exp: nowSec + 300, nonce: oidcNonceFor(CLIENT_KEY) });
    const header = b64({ alg: 'none' });
    for (const t of ['garbage', `${header}.${payload}`, `not-json.${payload}.`, `${header}.bm90LWpzb24.`]) {
      expect(await failureOf(verifier.verify(t, verifyOptions))).toEqual({
        code: 'INVALID_INPUT',
        reason: 'MALFORMED',
      });
    }
  });

  it('will not run a sandbox verify without an expected nonce', async () => {
    const outcome = await failureOf(verifier.verify(token({}), { ...verifyOptions, expectedNonce: undefined }));
    expect(outcome.code).toBe('INTERNAL_ERROR');
  });
});
