import { generateKeyPair, SignJWT } from 'jose';
import { AppError } from '../../../../lib/errors';
import { startLocalOidcIssuer, type LocalOidcIssuer } from '../../../../test/fixtures/local-oidc-issuer';
import { createOidcVerifier, type OidcVerifierOptions } from './create-oidc-verifier';

async function failureOf(promise: Promise<unknown>): Promise<{ code: string; reason: unknown }> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof AppError) return { code: err.code, reason: err.details?.reason };
    throw err;
  }
  throw new Error('expected a rejection');
}

const AUD = 'client-app';
let clock: number;
let issuer: LocalOidcIssuer;

beforeEach(async () => {
  clock = Date.now();
  issuer = await startLocalOidcIssuer({ now: () => clock });
});
afterEach(() => issuer.stop());

function verifier(options: OidcVerifierOptions = {}) {
  return createOidcVerifier({ now: () => clock, ...options });
}
const live = () => ({ allowedIssuers: [issuer.issuer], allowedAudiences: [AUD], mode: 'live' as const });

describe('createOidcVerifier (live)', () => {
  it('accepts a fresh token signed by an allowed issuer and returns its identity', async () => {
    const token = await issuer.issueToken({ sub: 'user-1', aud: AUD, email: 'a@example.com', nonce: 'n1' });
    const result = await verifier().verify(token, live());
    expect(result).toEqual({
      iss: issuer.issuer,
      aud: AUD,
      sub: 'user-1',
      email: 'a@example.com',
      nonce: 'n1',
      iat: Math.floor(clock / 1000),
    });
    expect(issuer.requests).toEqual({ discovery: 1, jwks: 1 });
  });

  it('serves a second verify from the cache and refetches after the TTL', async () => {
    const v = verifier({ cacheTtlMs: 60_000 });
    await v.verify(await issuer.issueToken({ sub: 'u', aud: AUD }), live());
    await v.verify(await issuer.issueToken({ sub: 'u', aud: AUD }), live());
    expect(issuer.requests).toEqual({ discovery: 1, jwks: 1 });
    clock += 60_001;
    await v.verify(await issuer.issueToken({ sub: 'u', aud: AUD }), live());
    expect(issuer.requests).toEqual({ discovery: 2, jwks: 2 });
  });

  it('shares one fetch between concurrent verifies', async () => {
    const v = verifier();
    const tokens = await Promise.all([1, 2, 3, 4].map(() => issuer.issueToken({ sub: 'u', aud: AUD })));
    await Promise.all(tokens.map((t) => v.verify(t, live())));
    expect(issuer.requests).toEqual({ discovery: 1, jwks: 1 });
  });

  it('refuses a tampered signature and a signature by a foreign key under the issuer kid', async () => {
    const token = await issuer.issueToken({ sub: 'u', aud: AUD });
    const [h, p, s] = token.split('.');
    const flipped = `${h}.${p}.${s[0] === 'A' ? 'B' : 'A'}${s.slice(1)}`;
    expect(await failureOf(verifier().verify(flipped, live()))).toEqual({
      code: 'INVALID_INPUT',
      reason: 'SIGNATURE_INVALID',
    });

    const foreign = await generateKeyPair('RS256');
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', kid: issuer.kid })
      .setIssuer(issuer.issuer).setSubject('u').setAudience(AUD)
      .setIssuedAt(Math.floor(clock / 1000)).setExpirationTime(Math.floor(clock / 1000) + 300)
      .sign(foreign.privateKey);
    expect(await failureOf(verifier().verify(forged, live()))).toEqual({
      code: 'INVALID_INPUT',
      reason: 'SIGNATURE_INVALID',
    });
  });

  it('refuses a symmetric algorithm', async () => {
    const secret = new TextEncoder().encode('0123456789abcdef0123456789abcdef');
    const now = Math.floor(clock / 1000);
    const token = await new SignJWT({}).setProtectedHeader({ alg: 'HS256', kid: issuer.kid })
      .setIssuer(issuer.issuer).setSubject('u').setAudience(AUD).setIssuedAt(now).setExpirationTime(now + 60)
      .sign(secret);
    expect(await failureOf(verifier().verify(token, live()))).toEqual({
      code: 'INVALID_INPUT',
      reason: 'ALGORITHM_NOT_ALLOWED',
    });
  });

  it('refuses an issuer that is not allowed without fetching anything', async () => {
    const token = await issuer.issueToken({ sub: 'u', aud: AUD, iss: 'https://evil.example' });
    expect(await failureOf(verifier().verify(token, live()))).toEqual({
      code: 'INVALID_INPUT',
      reason: 'ISSUER_NOT_ALLOWED',
    });
    expect(issuer.requests).toEqual({ discovery: 0, jwks: 0 });
  });

  it('refuses an audience that is not allowed', async () => {
    const token = await issuer.issueToken({ sub: 'u', aud: 'other-app' });
    expect(await failureOf(verifier().verify(token, live()))).toEqual({
      code: 'INVALID_INPUT',
      reason: 'AUDIENCE_NOT_ALLOWED',
    });
  });

  it('accepts iat 60 s old, refuses 61 s old, a future iat and an expired token', async () => {
    const v = verifier();
    await expect(v.verify(await issuer.issueToken({ sub: 'u', aud: AUD, iatOffsetSeconds: -60 }), live())).resolves
      .toBeDefined();
    const old = await issuer.issueToken({ sub: 'u', aud: AUD, iatOffsetSeconds: -61 });
    expect(await failureOf(v.verify(old, live()))).toEqual({ code: 'INVALID_INPUT', reason: 'STALE' });
    const future = await issuer.issueToken({ sub: 'u', aud: AUD, iatOffsetSeconds: 30 });
    expect(await failureOf(v.verify(future, live()))).toEqual({ code: 'INVALID_INPUT', reason: 'ISSUED_IN_FUTURE' });
    await expect(v.verify(await issuer.issueToken({ sub: 'u', aud: AUD, iatOffsetSeconds: 3 }), live())).resolves
      .toBeDefined();
    const expired = await issuer.issueToken({ sub: 'u', aud: AUD, iatOffsetSeconds: -30, expiresInSeconds: 10 });
    expect(await failureOf(v.verify(expired, live()))).toEqual({ code: 'INVALID_INPUT', reason: 'EXPIRED' });
  });

  it('refetches the key set on an unknown kid, at most once per cooldown', async () => {
    const v = verifier({ refetchCooldownMs: 30_000 });
    await v.verify(await issuer.issueToken({ sub: 'u', aud: AUD }), live());
    await issuer.rotateKey();
    const early = await issuer.issueToken({ sub: 'u', aud: AUD });
    expect(await failureOf(v.verify(early, live()))).toEqual({ code: 'INVALID_INPUT', reason: 'UNKNOWN_KEY' });
    expect(issuer.requests).toEqual({ discovery: 1, jwks: 1 });

    clock += 30_000;
    const result = await v.verify(await issuer.issueToken({ sub: 'u', aud: AUD }), live());
    expect(result.sub).toBe('u');
    expect(issuer.requests).toEqual({ discovery: 1, jwks: 2 });
  });

  it('refuses a kid the issuer never published, even after a refetch', async () => {
    const token = await issuer.issueToken({ sub: 'u', aud: AUD, kid: 'no-such-key' });
    expect(await failureOf(verifier({ refetchCooldownMs: 0 }).verify(token, live()))).toEqual({
      code: 'INVALID_INPUT',
      reason: 'UNKNOWN_KEY',
    });
    expect(issuer.requests).toEqual({ discovery: 1, jwks: 2 });
  });

  it('checks the credential identity on verify', async () => {
    const token = await issuer.issueToken({ sub: 'user-1', aud: [AUD, 'other'] });
    const identity = { iss: issuer.issuer, aud: AUD, sub: 'user-1' };
    await expect(verifier().verify(token, { ...live(), expectedIdentity: identity })).resolves.toMatchObject(identity);
    for (const mismatch of [{ sub: 'user-2' }, { aud: 'third' }, { iss: 'https://other.example' }]) {
      const outcome = await failureOf(
        verifier().verify(token, { ...live(), expectedIdentity: { ...identity, ...mismatch } }),
      );
      expect(outcome).toEqual({ code: 'UNAUTHORIZED', reason: 'IDENTITY_MISMATCH' });
    }
  });

  it('checks the nonce when one is expected', async () => {
    const token = await issuer.issueToken({ sub: 'u', aud: AUD, nonce: 'abc' });
    await expect(verifier().verify(token, { ...live(), expectedNonce: 'abc' })).resolves.toMatchObject({
      nonce: 'abc',
    });
    expect(await failureOf(verifier().verify(token, { ...live(), expectedNonce: 'abd' }))).toEqual({
      code: 'UNAUTHORIZED',
      reason: 'NONCE_MISMATCH',
    });
  });

  it('verifies ES256 issuers', async () => {
    const es = await startLocalOidcIssuer({ alg: 'ES256', now: () => clock });
    try {
      const token = await es.issueToken({ sub: 'u', aud: AUD });
      await expect(verifier().verify(token, { ...live(), allowedIssuers: [es.issuer] })).resolves.toMatchObject({
        sub: 'u',
      });
    } finally {
      await es.stop();
    }
  });

  it('reports an unreachable issuer as UNAVAILABLE and a garbage token as INVALID_INPUT', async () => {
    const token = await issuer.issueToken({ sub: 'u', aud: AUD });
    const down = verifier({ fetchImpl: () => Promise.reject(new Error('ECONNREFUSED')) });
    expect(await failureOf(down.verify(token, live()))).toEqual({ code: 'UNAVAILABLE', reason: 'ISSUER_UNAVAILABLE' });
    for (const garbage of ['', 'abc', 'a.b.c', `${token}.x.y`]) {
      expect(await failureOf(verifier().verify(garbage, live()))).toEqual({
        code: 'INVALID_INPUT',
        reason: 'MALFORMED',
      });
    }
  });
});
