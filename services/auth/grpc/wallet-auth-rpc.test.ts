import { randomUUID } from 'node:crypto';
import type { AppError } from '../../../lib/errors';
import { provisionWallet, signInWithOtp, stamp } from '../../../test/http/wallet-client';
import { startWalletTestSystem, type WalletTestSystem } from '../../../test/http/wallet-test-system';

let sys: WalletTestSystem;
beforeAll(async () => {
  sys = await startWalletTestSystem();
});
afterAll(async () => {
  await sys.stop();
});

const ctx = () => ({ platformId: sys.platformId });
const codeOf = (promise: Promise<unknown>) => promise.then(() => 'OK', (err: AppError) => err.code);
const newAccount = () => `InternalAccount:${randomUUID()}`;

describe('WalletAuthService for the accounts service (real gRPC server)', () => {
  test('ProvisionWallet is idempotent and answers the EMAIL_OTP credential', async () => {
    const accountId = newAccount();
    const request = {
      accountId,
      platformId: sys.platformId,
      customerEmail: 'rpc@example.com',
      customerPhone: '+14155550177',
    };
    const first = await sys.walletAuth.provisionWallet(request, ctx());
    expect(first).toEqual({
      created: true,
      emailOtpCredential: {
        id: expect.stringMatching(/^AuthMethod:/),
        accountId,
        type: 'EMAIL_OTP',
        nickname: 'rpc@example.com',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    });
    expect(await sys.walletAuth.provisionWallet(request, ctx())).toEqual({ ...first, created: false });
    expect(await sys.walletAuth.listEmailOtpAccounts({ accountIds: [accountId, newAccount()] }, ctx())).toEqual({
      accountIds: [accountId],
    });
  });

  test('ProvisionWallet refuses another platform than the caller and malformed ids', async () => {
    expect(
      await codeOf(
        sys.walletAuth.provisionWallet({
          accountId: newAccount(),
          platformId: 'Platform:other',
          customerEmail: 'a@example.com',
        }, ctx()),
      ),
    ).toBe('INVALID_INPUT');
    expect(
      await codeOf(
        sys.walletAuth.provisionWallet({
          accountId: 'nope',
          platformId: sys.platformId,
          customerEmail: 'a@example.com',
        }, ctx()),
      ),
    ).toBe('INVALID_INPUT');
  });

  test('SyncEmailOtpEmail: all tied credentials change, or none (424 EMAIL_OTP_CREDENTIAL_SYNC_FAILED)', async () => {
    const a = await provisionWallet(sys, { email: 'same@example.com' });
    const b = await provisionWallet(sys, { email: 'same@example.com' });
    expect(
      await codeOf(
        sys.walletAuth.syncEmailOtpEmail(
          { accountIds: [a.accountId, b.accountId], newEmail: 'no@sync-fail.invalid' },
          ctx(),
        ),
      ),
    ).toBe('EMAIL_OTP_CREDENTIAL_SYNC_FAILED');
    const unchanged = await sys.api(`/auth/credentials?accountId=${a.accountId}`);
    expect(unchanged.body.data[0].nickname).toBe('same@example.com');
    const synced = await sys.walletAuth.syncEmailOtpEmail({
      accountIds: [a.accountId, b.accountId],
      newEmail: 'moved@example.com',
    }, ctx());
    expect(synced.credentialIds.sort()).toEqual([a.emailCredentialId, b.emailCredentialId].sort());
    expect((await sys.api(`/auth/credentials?accountId=${b.accountId}`)).body.data[0].nickname).toBe(
      'moved@example.com',
    );
  });

  test('calls without a platform are refused', async () => {
    expect(await codeOf(sys.walletAuth.listCredentials({ accountId: newAccount() }))).toBe('UNAUTHORIZED');
    expect((await sys.walletAuth.getEnclavePublicKey({})).publicKey).toMatch(/^04[0-9a-f]{128}$/);
  });
});

describe('SignedRetryService: the same mechanism for a customer PATCH', () => {
  test('begin -> CLAIMED once -> settle -> identical retries get the result; failures carry their code', async () => {
    const wallet = await provisionWallet(sys);
    const signer = await signInWithOtp(sys.api, wallet.emailCredentialId);
    const request = {
      operation: 'customer.update',
      targetId: 'Customer:1',
      body: { customerType: 'INDIVIDUAL', email: 'next@example.com' },
    };
    const { challenge } = await sys.signedRetry.beginSignedRetry({
      ...request,
      signerAccountIds: [wallet.accountId],
      parameters: { userEmail: 'next@example.com' },
    }, ctx());
    expect(challenge).toMatchObject({
      payloadToSign: expect.stringContaining('next@example.com'),
      requestId: expect.stringMatching(/^Request:/),
    });
    const signature = { stamp: await stamp(signer.key, challenge!.payloadToSign), requestId: challenge!.requestId };
    // The body's key order does not matter, its content does.
    const reordered = { ...request, body: { email: 'next@example.com', customerType: 'INDIVIDUAL' } };
    expect(await sys.signedRetry.completeSignedRetry({ ...reordered, signature }, ctx())).toMatchObject({
      state: 'CLAIMED',
    });
    expect(await sys.signedRetry.completeSignedRetry({ ...request, signature }, ctx())).toMatchObject({
      state: 'PROCESSING',
    });
    await sys.signedRetry.settleSignedRetry({
      requestId: challenge!.requestId,
      result: { id: 'Customer:1', email: 'next@example.com' },
    }, ctx());
    expect(await sys.signedRetry.completeSignedRetry({ ...request, signature }, ctx())).toEqual({
      state: 'SETTLED',
      requestId: challenge!.requestId,
      result: { id: 'Customer:1', email: 'next@example.com' },
    });
    expect(
      await codeOf(
        sys.signedRetry.completeSignedRetry({ ...request, body: { email: 'x@example.com' }, signature }, ctx()),
      ),
    ).toBe('REQUEST_ID_ALREADY_USED');

    const second = (await sys.signedRetry.beginSignedRetry({
      ...request,
      targetId: 'Customer:2',
      signerAccountIds: [wallet.accountId],
    }, ctx())).challenge!;
    const secondSignature = { stamp: await stamp(signer.key, second.payloadToSign), requestId: second.requestId };
    const twoRequest = { ...request, targetId: 'Customer:2', signature: secondSignature };
    expect(
      await codeOf(
        sys.signedRetry.completeSignedRetry({ ...twoRequest, signature: { requestId: second.requestId } }, ctx()),
      ),
    ).toBe('WALLET_SIGNATURE_MISSING');
    expect((await sys.signedRetry.completeSignedRetry(twoRequest, ctx())).state).toBe('CLAIMED');
    await sys.signedRetry.settleSignedRetry({
      requestId: second.requestId,
      errorCode: 'EMAIL_OTP_CREDENTIAL_SYNC_FAILED',
      errorMessage: 'sync failed',
    }, ctx());
    expect(await codeOf(sys.signedRetry.completeSignedRetry(twoRequest, ctx()))).toBe(
      'EMAIL_OTP_CREDENTIAL_SYNC_FAILED',
    );
  });
});
