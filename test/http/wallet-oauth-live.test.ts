import { startLocalOidcIssuer, type LocalOidcIssuer } from '../fixtures/local-oidc-issuer';
import {
  enclavePublicKey,
  expectError,
  newKeyPair,
  openWalletExport,
  provisionWallet,
  signedHeaders,
  signedRetry,
  stamp,
  type KeyPair,
  type WalletFixture,
} from './wallet-client';
import { sessionKeyFrom } from './wallet-passkey';
import { turnkeyCrypto } from '../../services/auth/domain/wallet-crypto/turnkey-client.fixture';
import { startWalletTestSystem, type WalletTestSystem } from './wallet-test-system';

const AUDIENCE = 'wallet-app';
let issuer: LocalOidcIssuer;
let sys: WalletTestSystem;
let wallet: WalletFixture;
beforeAll(async () => {
  issuer = await startLocalOidcIssuer();
  sys = await startWalletTestSystem({
    EMBEDDED_WALLET_SANDBOX: 'false',
    WALLET_OIDC_ALLOWED_ISSUERS: issuer.issuer,
    WALLET_OIDC_ALLOWED_AUDIENCES: AUDIENCE,
  });
  wallet = await provisionWallet(sys);
});
afterAll(async () => {
  await sys.stop();
  await issuer.stop();
});

/** Outside the sandbox the code really goes out; the embedded delivery adapter keeps it readable. */
async function signInWithDeliveredCode(): Promise<{ session: any; key: KeyPair }> {
  const pinned = await enclavePublicKey(sys.api);
  const challenge = await sys.api(`/auth/credentials/${wallet.emailCredentialId}/challenge`, { method: 'POST' });
  expect(challenge.status).toBe(200);
  const { messages } = await sys.delivery.listSentMessages({ to: wallet.email });
  const code = /verification code is ([0-9]+)/.exec(messages[messages.length - 1].body)![1];
  expect(code).toMatch(/^[0-9]{6}$/);
  const key = newKeyPair();
  const bundleFor = (otp: string) =>
    turnkeyCrypto.encryptOtpCodeToBundle(
      otp,
      challenge.body.otpEncryptionTargetBundle,
      key.publicKeyUncompressed,
      pinned,
    );
  const verify = (body: unknown, headers?: Record<string, string>) =>
    sys.api(`/auth/credentials/${wallet.emailCredentialId}/verify`, { method: 'POST', json: body, headers });
  if (code !== '000000') {
    expectError(
      await verify({ type: 'EMAIL_OTP', encryptedOtpBundle: await bundleFor('000000') }),
      401,
      'WALLET_SIGNATURE_INVALID',
    );
  }
  const body = { type: 'EMAIL_OTP', encryptedOtpBundle: await bundleFor(code) };
  const first = await verify(body);
  expect(first.status).toBe(202);
  const retry = await verify(body, signedHeaders(await stamp(key, first.body.payloadToSign), first.body.requestId));
  expect(retry.status).toBe(200);
  return { session: retry.body, key };
}

describe('outside the sandbox', () => {
  let email: { session: any; key: KeyPair };
  let oauthId: string;

  test('the email code is a fresh random code delivered by the notifications service; 000000 is refused', async () => {
    email = await signInWithDeliveredCode();
    const challenge = await sys.api(`/auth/credentials/${wallet.emailCredentialId}/challenge`, { method: 'POST' });
    // Re-issued within the interval: 429 with Retry-After.
    expect(challenge.status).toBe(429);
    expect(challenge.body.code).toBe('RATE_LIMITED');
    expect(Number(challenge.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  test("adds an OAUTH credential: the token is checked on the issuer's key set; nickname = email claim", async () => {
    const oidcToken = await issuer.issueToken({ sub: 'user-1', aud: AUDIENCE, email: 'oauth@example.com' });
    const call = {
      method: 'POST',
      path: '/auth/credentials',
      json: { type: 'OAUTH', accountId: wallet.accountId, oidcToken },
    };
    const { retry } = await signedRetry(sys.api, call, email.key);
    expect(retry.status).toBe(201);
    expect(retry.body).toMatchObject({ type: 'OAUTH', nickname: 'oauth@example.com' });
    oauthId = retry.body.id;
    expect(issuer.requests.jwks).toBeGreaterThan(0);
    const again = await issuer.issueToken({ sub: 'user-1', aud: AUDIENCE, email: 'oauth@example.com' });
    expectError(
      await sys.api('/auth/credentials', { method: 'POST', json: { ...call.json, oidcToken: again } }),
      400,
      'INVALID_INPUT',
    );
  });

  test('verifies OAUTH with a fresh token: 200 session sealed to the client key, which can then export', async () => {
    const clientKey = newKeyPair();
    const body = {
      type: 'OAUTH',
      oidcToken: await issuer.issueToken({ sub: 'user-1', aud: AUDIENCE }),
      clientPublicKey: clientKey.publicKeyUncompressed,
    };
    const res = await sys.api(`/auth/credentials/${oauthId}/verify`, { method: 'POST', json: body });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'OAUTH', encryptedSessionSigningKey: expect.any(String) });
    expect((await sys.api(`/auth/credentials/${oauthId}/verify`, { method: 'POST', json: body })).body.id).toBe(
      res.body.id,
    );
    const key = sessionKeyFrom(res.body.encryptedSessionSigningKey, clientKey);
    const exportKey = newKeyPair();
    const { retry } = await signedRetry(sys.api, {
      method: 'POST',
      path: `/internal-accounts/${wallet.accountId}/export`,
      json: { clientPublicKey: exportKey.publicKeyUncompressed },
    }, key);
    expect(retry.status).toBe(200);
    expect(
      await openWalletExport(
        retry.body.encryptedWalletCredentials,
        exportKey,
        wallet.accountId,
        await enclavePublicKey(sys.api),
      ),
    ).toMatch(/^[0-9a-f]{64}$/);
  });

  test('verify with another identity: 401; with a stale token: 400', async () => {
    const clientPublicKey = newKeyPair().publicKeyUncompressed;
    const stranger = await issuer.issueToken({ sub: 'user-2', aud: AUDIENCE });
    expect(
      (await sys.api(`/auth/credentials/${oauthId}/verify`, {
        method: 'POST',
        json: { type: 'OAUTH', oidcToken: stranger, clientPublicKey },
      })).status,
    ).toBe(401);
    const stale = await issuer.issueToken({ sub: 'user-1', aud: AUDIENCE, iatOffsetSeconds: -120 });
    expectError(
      await sys.api(`/auth/credentials/${oauthId}/verify`, {
        method: 'POST',
        json: { type: 'OAUTH', oidcToken: stale, clientPublicKey },
      }),
      400,
      'INVALID_INPUT',
    );
  });
});
