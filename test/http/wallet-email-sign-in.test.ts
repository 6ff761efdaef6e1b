import {
  newKeyPair,
  otpFirstLeg,
  provisionWallet,
  signedHeaders,
  signInWithOtp,
  stamp,
  type WalletFixture,
} from './wallet-client';
import { startWalletTestSystem, type WalletTestSystem } from './wallet-test-system';

let sys: WalletTestSystem;
beforeAll(async () => {
  sys = await startWalletTestSystem({ WALLET_OTP_REISSUE_INTERVAL_MS: '0' });
});
afterAll(async () => {
  await sys.stop();
});

describe('sign in with the sandbox email code (real Turnkey client libraries)', () => {
  let wallet: WalletFixture;
  beforeAll(async () => {
    wallet = await provisionWallet(sys);
  });

  test('the provisioned account lists its default EMAIL_OTP credential, nickname = email', async () => {
    const res = await sys.api(`/auth/credentials?accountId=${wallet.accountId}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      {
        id: wallet.emailCredentialId,
        accountId: wallet.accountId,
        type: 'EMAIL_OTP',
        nickname: wallet.email,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ]);
  });

  test('challenge answers the AuthMethod with a target bundle signed by the published enclave key', async () => {
    const key = await sys.api('/auth/enclave-public-key');
    expect(key.body.enclaveQuorumPublic).toMatch(/^04[0-9a-f]{128}$/);
    const res = await sys.api(`/auth/credentials/${wallet.emailCredentialId}/challenge`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: wallet.emailCredentialId, type: 'EMAIL_OTP', nickname: wallet.email });
    const bundle = JSON.parse(res.body.otpEncryptionTargetBundle);
    expect(bundle).toMatchObject({ version: 'v1.0.0', enclaveQuorumPublic: key.body.enclaveQuorumPublic });
    expect(JSON.parse(Buffer.from(bundle.data, 'hex').toString()).targetPublic).toMatch(/^04[0-9a-f]{128}$/);
  });

  test('verify: 202 challenge, then the retry stamped by the bundle key: 200 AuthSession, no sealed key', async () => {
    const { key, body, first } = await otpFirstLeg(sys.api, wallet.emailCredentialId);
    expect(first.status).toBe(202);
    expect(first.body).toEqual({
      type: 'EMAIL_OTP',
      payloadToSign: expect.any(String),
      requestId: expect.stringMatching(/^Request:[0-9a-f-]{36}$/),
      expiresAt: expect.any(String),
    });
    const ttl = Date.parse(first.body.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(290_000);
    expect(ttl).toBeLessThanOrEqual(300_000);
    const retry = await sys.api(`/auth/credentials/${wallet.emailCredentialId}/verify`, {
      method: 'POST',
      json: body,
      headers: signedHeaders(await stamp(key, first.body.payloadToSign), first.body.requestId),
    });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({
      id: expect.stringMatching(/^Session:/),
      accountId: wallet.accountId,
      type: 'EMAIL_OTP',
      nickname: wallet.email,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      expiresAt: expect.any(String),
    });
    const sessions = await sys.api(`/auth/sessions?accountId=${wallet.accountId}`);
    expect(sessions.body.data.map((s: { id: string }) => s.id)).toContain(retry.body.id);
    expect(sessions.body.data[0].encryptedSessionSigningKey).toBeUndefined();
  });

  test('the session key authorizes a signed retry (revoking that same session: 204)', async () => {
    const { session, key } = await signInWithOtp(sys.api, wallet.emailCredentialId);
    const path = `/auth/sessions/${session.id}`;
    const challenge = await sys.api(path, { method: 'DELETE' });
    expect(challenge.status).toBe(202);
    expect(challenge.body.type).toBe('EMAIL_OTP');
    const retry = await sys.api(path, {
      method: 'DELETE',
      headers: signedHeaders(await stamp(key, challenge.body.payloadToSign), challenge.body.requestId),
    });
    expect(retry.status).toBe(204);
    const sessions = await sys.api(`/auth/sessions?accountId=${wallet.accountId}`);
    expect(sessions.body.data.map((s: { id: string }) => s.id)).not.toContain(session.id);
  });

  test('a wrong code: 401 WALLET_SIGNATURE_INVALID', async () => {
    const { first } = await otpFirstLeg(sys.api, wallet.emailCredentialId, { code: '123456' });
    expect(first.status).toBe(401);
    expect(first.body.code).toBe('WALLET_SIGNATURE_INVALID');
  });

  test('a bundle encrypted to a target that a re-issue replaced: 401', async () => {
    const pinned = (await sys.api('/auth/enclave-public-key')).body.enclaveQuorumPublic;
    const old = await sys.api(`/auth/credentials/${wallet.emailCredentialId}/challenge`, { method: 'POST' });
    await sys.api(`/auth/credentials/${wallet.emailCredentialId}/challenge`, { method: 'POST' });
    const { turnkeyCrypto } = await import('../../services/auth/domain/wallet-crypto/turnkey-client.fixture');
    const bundle = await turnkeyCrypto.encryptOtpCodeToBundle(
      '000000',
      old.body.otpEncryptionTargetBundle,
      newKeyPair().publicKeyUncompressed,
      pinned,
    );
    const res = await sys.api(`/auth/credentials/${wallet.emailCredentialId}/verify`, {
      method: 'POST',
      json: { type: 'EMAIL_OTP', encryptedOtpBundle: bundle },
    });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('WALLET_SIGNATURE_INVALID');
  });

  test('five wrong codes exhaust the code: 429 RATE_LIMITED with Retry-After', async () => {
    const { turnkeyCrypto } = await import('../../services/auth/domain/wallet-crypto/turnkey-client.fixture');
    const pinned = (await sys.api('/auth/enclave-public-key')).body.enclaveQuorumPublic;
    const challenge = await sys.api(`/auth/credentials/${wallet.emailCredentialId}/challenge`, { method: 'POST' });
    const attempt = async (code: string) => {
      const encryptedOtpBundle = await turnkeyCrypto.encryptOtpCodeToBundle(
        code,
        challenge.body.otpEncryptionTargetBundle,
        newKeyPair().publicKeyUncompressed,
        pinned,
      );
      return sys.api(`/auth/credentials/${wallet.emailCredentialId}/verify`, {
        method: 'POST',
        json: { type: 'EMAIL_OTP', encryptedOtpBundle },
      });
    };
    for (let i = 0; i < 5; i += 1) expect((await attempt('999999')).status).toBe(401);
    const sixth = await attempt('000000');
    expect(sixth.status).toBe(429);
    expect(sixth.body.code).toBe('RATE_LIMITED');
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  test('the code is single use: the same first leg again is refused', async () => {
    const { body, first } = await otpFirstLeg(sys.api, wallet.emailCredentialId);
    expect(first.status).toBe(202);
    const again = await sys.api(`/auth/credentials/${wallet.emailCredentialId}/verify`, { method: 'POST', json: body });
    expect(again.status).toBe(401);
  });
});
