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
import { startWalletTestSystem, type WalletTestSystem } from './wallet-test-system';

let sys: WalletTestSystem;
let wallet: WalletFixture;
let signer: { session: any; key: KeyPair };
beforeAll(async () => {
  sys = await startWalletTestSystem({ WALLET_OTP_REISSUE_INTERVAL_MS: '0' });
  wallet = await provisionWallet(sys, { phone: '+14155550123' });
  signer = await signInWithOtp(sys.api, wallet.emailCredentialId);
});
afterAll(async () => {
  await sys.stop();
});

const exportPath = () => `/internal-accounts/${wallet.accountId}/export`;
async function exportChallenge(clientKey = newKeyPair()) {
  const json = { clientPublicKey: clientKey.publicKeyUncompressed };
  const challenge = await sys.api(exportPath(), { method: 'POST', json });
  expect(challenge.status).toBe(202);
  return { json, clientKey, challenge: challenge.body as { payloadToSign: string; requestId: string } };
}
const retryExport = (json: unknown, headers: Record<string, string>) =>
  sys.api(exportPath(), { method: 'POST', json, headers });

describe('the signed retry, on wallet export', () => {
  test('success: 200 with the credentials sealed to the client key; an identical re-send gets them again', async () => {
    const { json, clientKey, challenge } = await exportChallenge();
    expect(challenge.payloadToSign).toContain(json.clientPublicKey);
    const headers = signedHeaders(await stamp(signer.key, challenge.payloadToSign), challenge.requestId);
    const first = await retryExport(json, headers);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ id: wallet.accountId, encryptedWalletCredentials: expect.any(String) });
    const pinned = await enclavePublicKey(sys.api);
    const secret = await openWalletExport(first.body.encryptedWalletCredentials, clientKey, wallet.accountId, pinned);
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    const again = await retryExport(json, headers);
    expect(again.status).toBe(200);
    // Sealed afresh (never stored), same wallet secret inside.
    expect(again.body.encryptedWalletCredentials).not.toBe(first.body.encryptedWalletCredentials);
    expect(await openWalletExport(again.body.encryptedWalletCredentials, clientKey, wallet.accountId, pinned)).toBe(
      secret,
    );
  });

  test('Request-Id without a signature: 401 WALLET_SIGNATURE_MISSING', async () => {
    const { json, challenge } = await exportChallenge();
    expectError(await retryExport(json, { 'Request-Id': challenge.requestId }), 401, 'WALLET_SIGNATURE_MISSING');
  });

  test('a signature without Request-Id: 401 REQUEST_ID_MISSING', async () => {
    const { json, challenge } = await exportChallenge();
    expectError(
      await retryExport(json, { 'Service-Wallet-Signature': await stamp(signer.key, challenge.payloadToSign) }),
      401,
      'REQUEST_ID_MISSING',
    );
  });

  test.each([
    ['not base64url', '%%%not-a-stamp%%%'],
    ['not JSON', Buffer.from('hello').toString('base64url')],
    [
      'no signature member',
      Buffer.from(JSON.stringify({ publicKey: '02' + 'ab'.repeat(32), scheme: 'SIGNATURE_SCHEME_TK_API_P256' }))
        .toString('base64url'),
    ],
    [
      'another scheme',
      Buffer.from(JSON.stringify({ publicKey: '02' + 'ab'.repeat(32), scheme: 'RSA', signature: '3006020101020101' }))
        .toString('base64url'),
    ],
  ])('an unparseable stamp (%s): 401 WALLET_SIGNATURE_MALFORMED', async (_name, value) => {
    const { json, challenge } = await exportChallenge();
    expectError(await retryExport(json, signedHeaders(value, challenge.requestId)), 401, 'WALLET_SIGNATURE_MALFORMED');
  });

  test('a retry body that differs from the challenged one: 401 WALLET_SIGNATURE_BODY_MISMATCH', async () => {
    const { challenge } = await exportChallenge();
    const other = { clientPublicKey: newKeyPair().publicKeyUncompressed };
    expectError(
      await retryExport(other, signedHeaders(await stamp(signer.key, challenge.payloadToSign), challenge.requestId)),
      401,
      'WALLET_SIGNATURE_BODY_MISMATCH',
    );
  });

  test('the request id of another endpoint: 401 WALLET_SIGNATURE_BODY_MISMATCH', async () => {
    const { challenge } = await exportChallenge();
    const res = await sys.api(`/internal-accounts/${wallet.accountId}`, {
      method: 'PATCH',
      json: { privateEnabled: true },
      headers: signedHeaders(await stamp(signer.key, challenge.payloadToSign), challenge.requestId),
    });
    expectError(res, 401, 'WALLET_SIGNATURE_BODY_MISMATCH');
  });

  test('a key that is no session: 401 WALLET_SIGNATURE_INVALID', async () => {
    const { json, challenge } = await exportChallenge();
    expectError(
      await retryExport(json, signedHeaders(await stamp(newKeyPair(), challenge.payloadToSign), challenge.requestId)),
      401,
      'WALLET_SIGNATURE_INVALID',
    );
  });

  test('a session key signing another payload: 401 WALLET_SIGNATURE_INVALID', async () => {
    const { json, challenge } = await exportChallenge();
    const tampered = challenge.payloadToSign.replace('"type"', '"type" ');
    expectError(
      await retryExport(json, signedHeaders(await stamp(signer.key, tampered), challenge.requestId)),
      401,
      'WALLET_SIGNATURE_INVALID',
    );
  });

  test('a session of another account: 401 WALLET_SIGNATURE_INVALID', async () => {
    const other = await provisionWallet(sys);
    const stranger = await signInWithOtp(sys.api, other.emailCredentialId);
    const { json, challenge } = await exportChallenge();
    expectError(
      await retryExport(json, signedHeaders(await stamp(stranger.key, challenge.payloadToSign), challenge.requestId)),
      401,
      'WALLET_SIGNATURE_INVALID',
    );
  });

  test('a revoked session: 401 WALLET_SIGNATURE_INVALID', async () => {
    const doomed = await signInWithOtp(sys.api, wallet.emailCredentialId);
    const revoke = await signedRetry(
      sys.api,
      { method: 'DELETE', path: `/auth/sessions/${doomed.session.id}` },
      doomed.key,
    );
    expect(revoke.retry.status).toBe(204);
    const { json, challenge } = await exportChallenge();
    expectError(
      await retryExport(json, signedHeaders(await stamp(doomed.key, challenge.payloadToSign), challenge.requestId)),
      401,
      'WALLET_SIGNATURE_INVALID',
    );
  });

  test('an unknown Request-Id: 401 WALLET_SIGNATURE_INVALID', async () => {
    const { json, challenge } = await exportChallenge();
    const unknown = 'Request:00000000-0000-4000-8000-000000000000';
    expectError(
      await retryExport(json, signedHeaders(await stamp(signer.key, challenge.payloadToSign), unknown)),
      401,
      'WALLET_SIGNATURE_INVALID',
    );
  });

  test('a used Request-Id with another stamp or body: 401 REQUEST_ID_ALREADY_USED', async () => {
    const { json, challenge } = await exportChallenge();
    expect(
      (await retryExport(json, signedHeaders(await stamp(signer.key, challenge.payloadToSign), challenge.requestId)))
        .status,
    ).toBe(200);
    // ECDSA stamps are randomized: a second stamp of the same payload is a different request.
    const restamped = signedHeaders(await stamp(signer.key, challenge.payloadToSign), challenge.requestId);
    expectError(await retryExport(json, restamped), 401, 'REQUEST_ID_ALREADY_USED');
    expectError(
      await retryExport({ clientPublicKey: newKeyPair().publicKeyUncompressed }, restamped),
      401,
      'REQUEST_ID_ALREADY_USED',
    );
  });

  test('an invalid client key: 400 INVALID_INPUT; a malformed account id: 400', async () => {
    expectError(
      await sys.api(exportPath(), { method: 'POST', json: { clientPublicKey: '04abc' } }),
      400,
      'INVALID_INPUT',
    );
    expectError(
      await sys.api('/internal-accounts/InternalAccount:nope/export', {
        method: 'POST',
        json: { clientPublicKey: newKeyPair().publicKeyUncompressed },
      }),
      400,
      'INVALID_INPUT',
    );
  });
});

describe('credential rules', () => {
  test('a second EMAIL_OTP: 400 EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS', async () => {
    const res = await sys.api('/auth/credentials', {
      method: 'POST',
      json: { type: 'EMAIL_OTP', accountId: wallet.accountId },
    });
    expectError(res, 400, 'EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS');
  });

  test(
    'SMS_OTP: added with a session (201, to the phone on '
      + 'file), a second one: 400 SMS_OTP_CREDENTIAL_ALREADY_EXISTS',
    async () => {
      const call = {
        method: 'POST',
        path: '/auth/credentials',
        json: { type: 'SMS_OTP', accountId: wallet.accountId },
      };
      const { challenge, retry } = await signedRetry(sys.api, call, signer.key);
      expect(challenge.body.type).toBe('SMS_OTP');
      expect(retry.status).toBe(201);
      expect(retry.body).toMatchObject({
        id: expect.stringMatching(/^AuthMethod:/),
        type: 'SMS_OTP',
        nickname: '+14155550123',
        accountId: wallet.accountId,
      });
      expect(JSON.parse(retry.body.otpEncryptionTargetBundle).version).toBe('v1.0.0');
      expectError(
        await sys.api(call.path, { method: 'POST', json: call.json }),
        400,
        'SMS_OTP_CREDENTIAL_ALREADY_EXISTS',
      );
      // The SMS credential signs in like the email one.
      const sms = await signInWithOtp(sys.api, retry.body.id, 'SMS_OTP');
      expect(sms.session).toMatchObject({ type: 'SMS_OTP', nickname: '+14155550123' });
    },
  );

  test('the only credential cannot be revoked: 400 LAST_CREDENTIAL', async () => {
    const lonely = await provisionWallet(sys);
    expectError(
      await sys.api(`/auth/credentials/${lonely.emailCredentialId}`, { method: 'DELETE' }),
      400,
      'LAST_CREDENTIAL',
    );
  });

  test('revoke signed by a session of the same credential: 401 WALLET_SIGNATURE_INVALID', async () => {
    const { retry } = await signedRetry(sys.api, {
      method: 'DELETE',
      path: `/auth/credentials/${wallet.emailCredentialId}`,
    }, signer.key);
    expectError(retry, 401, 'WALLET_SIGNATURE_INVALID');
  });

  test('unknown or malformed credential ids: 404', async () => {
    expectError(
      await sys.api('/auth/credentials/AuthMethod:00000000-0000-4000-8000-000000000000/challenge', { method: 'POST' }),
      404,
      'REFERENCE_NOT_FOUND',
    );
    expectError(await sys.api('/auth/credentials/nope', { method: 'DELETE' }), 404, 'REFERENCE_NOT_FOUND');
    expectError(await sys.api('/auth/credentials?accountId=nope'), 400, 'INVALID_INPUT');
  });
});

test('members of the wrong JSON type are all listed before anything is signed (typed request members)', async () => {
  const res = await sys.api(`/auth/credentials/${wallet.emailCredentialId}/verify`, {
    method: 'POST',
    json: { type: 5, encryptedOtpBundle: { nested: true }, assertion: 'not an object' },
  });
  expectError(res, 400, 'INVALID_INPUT');
  expect(res.body.details.errors.map((e: { field: string }) => e.field)).toEqual([
    'type',
    'encryptedOtpBundle',
    'assertion',
  ]);
  const privacy = await sys.api(`/internal-accounts/${wallet.accountId}`, {
    method: 'PATCH',
    json: { privateEnabled: 'yes' },
  });
  expectError(privacy, 400, 'INVALID_INPUT');
  expect(privacy.body.details.errors).toEqual([{
    field: 'privateEnabled',
    message: expect.stringMatching(/boolean|true or false/),
  }]);
});
