import { createHash } from 'node:crypto';
import {
  enclavePublicKey,
  expectError,
  newKeyPair,
  openWalletExport,
  provisionWallet,
  signedHeaders,
  signedRetry,
  signInWithOtp,
  stamp,
  type KeyPair,
  type WalletFixture,
} from './wallet-client';
import {
  createSoftwareAuthenticator,
  PASSKEY_ENV,
  passkeyRegistration,
  RP,
  sessionKeyFrom,
  signInWithPasskey,
} from './wallet-passkey';
import { startWalletTestSystem, type WalletTestSystem } from './wallet-test-system';

const SANDBOX_ISSUER = 'https://issuer.example';
let sys: WalletTestSystem;
let wallet: WalletFixture;
const authenticator = createSoftwareAuthenticator();
beforeAll(async () => {
  sys = await startWalletTestSystem({
    ...PASSKEY_ENV,
    WALLET_OIDC_ALLOWED_ISSUERS: SANDBOX_ISSUER,
    WALLET_OIDC_ALLOWED_AUDIENCES: 'wallet-app',
  });
  wallet = await provisionWallet(sys);
});
afterAll(async () => {
  await sys.stop();
});

const ids = (res: { body: { data: Array<{ id: string }> } }) => res.body.data.map((x) => x.id);

describe("a new user's journey: email code, passkey, revoke email, refresh, revoke, export", () => {
  let email: { session: any; key: KeyPair };
  let passkey: { id: string; credentialId: string };
  let passkeySignIn: Awaited<ReturnType<typeof signInWithPasskey>>;
  let passkeySession: { session: any; key: KeyPair };

  test('signs in with the sandbox email code', async () => {
    email = await signInWithOtp(sys.api, wallet.emailCredentialId);
    expect(email.session.type).toBe('EMAIL_OTP');
  });

  test('adds a passkey with that session (202, then 201 with the WebAuthn credential id)', async () => {
    const json = passkeyRegistration(authenticator, wallet.accountId, 'Laptop (work)');
    const { challenge, retry } = await signedRetry(
      sys.api,
      { method: 'POST', path: '/auth/credentials', json },
      email.key,
    );
    expect(challenge.body.type).toBe('PASSKEY');
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual({
      id: expect.stringMatching(/^AuthMethod:/),
      accountId: wallet.accountId,
      type: 'PASSKEY',
      nickname: 'Laptop (work)',
      credentialId: json.attestation.credentialId,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    passkey = { id: retry.body.id, credentialId: retry.body.credentialId };
    // The same WebAuthn credential again.
    expectError(
      await sys.api('/auth/credentials', { method: 'POST', json: { ...json, nickname: 'again' } }),
      400,
      'PASSKEY_CREDENTIAL_ALREADY_EXISTS',
    );
  });

  test('signs in with the passkey: challenge (lowercase hex) bound to a client key, verify by Request-Id', async () => {
    passkeySignIn = await signInWithPasskey(sys.api, authenticator, passkey);
    passkeySession = passkeySignIn;
    expect(passkeySignIn.challenge).toMatchObject({
      id: passkey.id,
      type: 'PASSKEY',
      credentialId: passkey.credentialId,
      challenge: expect.stringMatching(/^[0-9a-f]{64}$/),
      requestId: expect.stringMatching(/^Request:/),
    });
    expect(passkeySession.session).toMatchObject({
      id: expect.stringMatching(/^Session:/),
      type: 'PASSKEY',
      nickname: 'Laptop (work)',
      encryptedSessionSigningKey: expect.any(String),
    });
    // The identical verify again is correlated to the same session.
    const again = await sys.api(`/auth/credentials/${passkey.id}/verify`, {
      method: 'POST',
      json: passkeySignIn.body,
      headers: { 'Request-Id': passkeySignIn.challenge.requestId },
    });
    expect(again.body.id).toBe(passkeySession.session.id);
  });

  test(
    'passkey verify: without Request-Id 401 REQUEST_ID_MISSING; a second assertion '
      + 'on a used Request-Id 401 REQUEST_ID_ALREADY_USED; a wrong signature 401',
    async () => {
      expectError(
        await sys.api(`/auth/credentials/${passkey.id}/verify`, { method: 'POST', json: passkeySignIn.body }),
        401,
        'REQUEST_ID_MISSING',
      );
      const other = authenticator.getAssertion({
        ...RP,
        challengeHex: passkeySignIn.challenge.challenge,
        credentialId: passkey.credentialId,
      });
      const reuse = await sys.api(`/auth/credentials/${passkey.id}/verify`, {
        method: 'POST',
        json: { type: 'PASSKEY', assertion: other },
        headers: { 'Request-Id': passkeySignIn.challenge.requestId },
      });
      expectError(reuse, 401, 'REQUEST_ID_ALREADY_USED');
      const fresh = await sys.api(`/auth/credentials/${passkey.id}/challenge`, {
        method: 'POST',
        json: { clientPublicKey: newKeyPair().publicKeyUncompressed },
      });
      const tampered = authenticator.getAssertion({
        ...RP,
        challengeHex: fresh.body.challenge,
        credentialId: passkey.credentialId,
        tamperSignature: true,
      });
      const bad = await sys.api(`/auth/credentials/${passkey.id}/verify`, {
        method: 'POST',
        json: { type: 'PASSKEY', assertion: tampered },
        headers: { 'Request-Id': fresh.body.requestId },
      });
      expectError(bad, 401, 'WALLET_SIGNATURE_INVALID');
    },
  );

  test('revokes the email credential with the passkey session (204): its sessions end', async () => {
    const { retry } = await signedRetry(sys.api, {
      method: 'DELETE',
      path: `/auth/credentials/${wallet.emailCredentialId}`,
    }, passkeySession.key);
    expect(retry.status).toBe(204);
    expect(ids(await sys.api(`/auth/credentials?accountId=${wallet.accountId}`))).toEqual([passkey.id]);
    expect(ids(await sys.api(`/auth/sessions?accountId=${wallet.accountId}`))).not.toContain(email.session.id);
    const { retry: denied } = await signedRetry(sys.api, {
      method: 'POST',
      path: `/internal-accounts/${wallet.accountId}/export`,
      json: { clientPublicKey: newKeyPair().publicKeyUncompressed },
    }, email.key);
    expectError(denied, 401, 'WALLET_SIGNATURE_INVALID');
    // Now the passkey is the last credential.
    expectError(await sys.api(`/auth/credentials/${passkey.id}`, { method: 'DELETE' }), 400, 'LAST_CREDENTIAL');
  });

  test('refreshes the passkey session: 201 with a new key sealed to the new client key', async () => {
    const clientKey = newKeyPair();
    const { challenge, retry } = await signedRetry(
      sys.api,
      {
        method: 'POST',
        path: `/auth/sessions/${passkeySession.session.id}/refresh`,
        json: { clientPublicKey: clientKey.publicKeyUncompressed },
      },
      passkeySession.key,
    );
    expect(challenge.body.payloadToSign).toContain(clientKey.publicKeyUncompressed);
    expect(retry.status).toBe(201);
    expect(retry.body).toMatchObject({
      id: expect.stringMatching(/^Session:/),
      type: 'PASSKEY',
      accountId: wallet.accountId,
    });
    expect(retry.body.id).not.toBe(passkeySession.session.id);
    const refreshed = { session: retry.body, key: sessionKeyFrom(retry.body.encryptedSessionSigningKey, clientKey) };
    // Only the refreshed session itself may sign its refresh.
    const other = await sys.api(`/auth/sessions/${passkeySession.session.id}/refresh`, {
      method: 'POST',
      json: { clientPublicKey: clientKey.publicKeyUncompressed },
    });
    const byOther = await sys.api(`/auth/sessions/${passkeySession.session.id}/refresh`, {
      method: 'POST',
      json: { clientPublicKey: clientKey.publicKeyUncompressed },
      headers: signedHeaders(await stamp(refreshed.key, other.body.payloadToSign), other.body.requestId),
    });
    expectError(byOther, 401, 'WALLET_SIGNATURE_INVALID');

    // The refreshed key revokes the old session (204), and the old one is gone.
    const { retry: revoked } = await signedRetry(sys.api, {
      method: 'DELETE',
      path: `/auth/sessions/${passkeySession.session.id}`,
    }, refreshed.key);
    expect(revoked.status).toBe(204);
    expect(ids(await sys.api(`/auth/sessions?accountId=${wallet.accountId}`))).toEqual([refreshed.session.id]);
    expectError(
      await sys.api(`/auth/sessions/${passkeySession.session.id}`, { method: 'DELETE' }),
      404,
      'REFERENCE_NOT_FOUND',
    );
    passkeySession = refreshed;
  });

  test('exports the wallet: only the client key opens it', async () => {
    const clientKey = newKeyPair();
    const { retry } = await signedRetry(sys.api, {
      method: 'POST',
      path: `/internal-accounts/${wallet.accountId}/export`,
      json: { clientPublicKey: clientKey.publicKeyUncompressed },
    }, passkeySession.key);
    expect(retry.status).toBe(200);
    const secret = await openWalletExport(
      retry.body.encryptedWalletCredentials,
      clientKey,
      wallet.accountId,
      await enclavePublicKey(sys.api),
    );
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    await expect(
      openWalletExport(
        retry.body.encryptedWalletCredentials,
        newKeyPair(),
        wallet.accountId,
        await enclavePublicKey(sys.api),
      ),
    ).rejects.toThrow();
  });
});

/** A JWT-shaped token with a dummy signature: the sandbox checks claims, not the issuer signature. */
function sandboxToken(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const iat = Math.floor(Date.now() / 1000);
  return `${part({ alg: 'RS256', typ: 'JWT' })}.${
    part({ iss: SANDBOX_ISSUER, aud: 'wallet-app', iat, exp: iat + 300, ...claims })
  }.c2lnbmF0dXJl`;
}

describe('OAUTH in the sandbox', () => {
  test('registration takes the email claim as nickname; verify needs nonce = sha256(clientPublicKey)', async () => {
    const owner = await provisionWallet(sys);
    const signer = await signInWithOtp(sys.api, owner.emailCredentialId);
    const call = {
      method: 'POST',
      path: '/auth/credentials',
      json: {
        type: 'OAUTH',
        accountId: owner.accountId,
        oidcToken: sandboxToken({ sub: 'g-1', email: 'g@example.com' }),
      },
    };
    const { retry } = await signedRetry(sys.api, call, signer.key);
    expect(retry.status).toBe(201);
    expect(retry.body).toMatchObject({ type: 'OAUTH', nickname: 'g@example.com' });

    const clientKey = newKeyPair();
    const nonce = createHash('sha256').update(clientKey.publicKeyUncompressed).digest('hex');
    const verify = (claims: Record<string, unknown>) =>
      sys.api(`/auth/credentials/${retry.body.id}/verify`, {
        method: 'POST',
        json: { type: 'OAUTH', oidcToken: sandboxToken(claims), clientPublicKey: clientKey.publicKeyUncompressed },
      });
    expect((await verify({ sub: 'g-1', nonce: 'f'.repeat(64) })).status).toBe(401);
    const ok = await verify({ sub: 'g-1', nonce });
    expect(ok.status).toBe(200);
    expect(sessionKeyFrom(ok.body.encryptedSessionSigningKey, clientKey).publicKey).toMatch(/^0[23][0-9a-f]{64}$/);
  });
});
