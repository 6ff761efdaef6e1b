import type { AppError } from '../../../../lib/errors';
import { createWalletAuthForTest, PLATFORM, stampWith, walletWithSession } from './wallet-auth.fixture';

const codeOf = (promise: Promise<unknown>) => promise.then(() => 'OK', (err: AppError) => err.code);
const account = (n: number) => `InternalAccount:00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('ProvisionWallet', () => {
  test('idempotent: the default EMAIL_OTP credential (nickname = email) is created once', async () => {
    const { auth } = await createWalletAuthForTest();
    const first = await auth.provisioning.provision({
      accountId: account(1),
      platformId: PLATFORM,
      customerEmail: 'jane@example.com',
    });
    expect(first).toMatchObject({
      created: true,
      emailOtpCredential: { type: 'EMAIL_OTP', nickname: 'jane@example.com', accountId: account(1) },
    });
    const again = await auth.provisioning.provision({
      accountId: account(1),
      platformId: PLATFORM,
      customerEmail: 'jane@example.com',
    });
    expect(again).toEqual({ created: false, emailOtpCredential: first.emailOtpCredential });
    expect(await auth.credentials.list(PLATFORM, account(1))).toHaveLength(1);
  });

  test('concurrent provisioning of one account makes one credential', async () => {
    const { auth } = await createWalletAuthForTest();
    const results = await Promise.all(
      Array.from(
        { length: 5 },
        () =>
          auth.provisioning.provision({ accountId: account(2), platformId: PLATFORM, customerEmail: 'a@example.com' }),
      ),
    );
    expect(new Set(results.map((r) => r.emailOtpCredential?.id)).size).toBe(1);
    expect(await auth.credentials.list(PLATFORM, account(2))).toHaveLength(1);
  });

  test('bad input: INVALID_INPUT', async () => {
    const { auth } = await createWalletAuthForTest();
    expect(await codeOf(auth.provisioning.provision({ accountId: 'Account:1', platformId: PLATFORM }))).toBe(
      'INVALID_INPUT',
    );
    expect(
      await codeOf(auth.provisioning.provision({ accountId: account(3), platformId: PLATFORM, customerEmail: 'nope' })),
    ).toBe('INVALID_INPUT');
  });

  test('without an email there is no credential; the first one is added without a signature', async () => {
    const { auth } = await createWalletAuthForTest();
    const provisioned = await auth.provisioning.provision({
      accountId: account(4),
      platformId: PLATFORM,
      customerPhone: '+14155550100',
    });
    expect(provisioned.emailOtpCredential).toBeUndefined();
    const added = await auth.credentials.create(PLATFORM, { type: 'SMS_OTP', accountId: account(4) }, undefined);
    expect(added).toMatchObject({
      kind: 'result',
      result: {
        authMethod: { type: 'SMS_OTP', nickname: '+14155550100', otpEncryptionTargetBundle: expect.any(String) },
      },
    });
    expect(await codeOf(auth.credentials.create(PLATFORM, { type: 'EMAIL_OTP', accountId: account(4) }, undefined)))
      .toBe('INVALID_INPUT');
    expect(await codeOf(auth.credentials.create(PLATFORM, { type: 'SMS_OTP', accountId: account(4) }, undefined))).toBe(
      'SMS_OTP_CREDENTIAL_ALREADY_EXISTS',
    );
  });
});

describe('customer email changes', () => {
  test('ListEmailOtpAccounts names the accounts with an active EMAIL_OTP credential', async () => {
    const { auth } = await createWalletAuthForTest();
    await auth.provisioning.provision({ accountId: account(5), platformId: PLATFORM, customerEmail: 'b@example.com' });
    await auth.provisioning.provision({ accountId: account(6), platformId: PLATFORM });
    expect(await auth.provisioning.listEmailOtpAccounts(PLATFORM, [account(5), account(6), account(7)])).toEqual([
      account(5),
    ]);
  });

  test('SyncEmailOtpEmail moves every tied credential to the new email', async () => {
    const { auth } = await createWalletAuthForTest();
    await auth.provisioning.provision({
      accountId: account(8),
      platformId: PLATFORM,
      customerEmail: 'old@example.com',
    });
    await auth.provisioning.provision({
      accountId: account(9),
      platformId: PLATFORM,
      customerEmail: 'old@example.com',
    });
    const ids = await auth.provisioning.syncEmailOtpEmail(PLATFORM, [account(8), account(9)], 'new@example.com');
    expect(ids).toHaveLength(2);
    for (const id of [account(8), account(9)]) {
      expect((await auth.credentials.list(PLATFORM, id))[0].nickname).toBe('new@example.com');
    }
  });

  test('a failed sync: 424 EMAIL_OTP_CREDENTIAL_SYNC_FAILED and nothing changes', async () => {
    const { auth } = await createWalletAuthForTest();
    await auth.provisioning.provision({
      accountId: account(10),
      platformId: PLATFORM,
      customerEmail: 'keep@example.com',
    });
    expect(await codeOf(auth.provisioning.syncEmailOtpEmail(PLATFORM, [account(10)], 'x@sync-fail.invalid'))).toBe(
      'EMAIL_OTP_CREDENTIAL_SYNC_FAILED',
    );
    expect((await auth.credentials.list(PLATFORM, account(10)))[0].nickname).toBe('keep@example.com');
  });

  test('an email already tied to another account: CONFLICT', async () => {
    const { auth } = await createWalletAuthForTest();
    await auth.provisioning.provision({
      accountId: account(11),
      platformId: PLATFORM,
      customerEmail: 'taken@example.com',
    });
    await auth.provisioning.provision({
      accountId: account(12),
      platformId: PLATFORM,
      customerEmail: 'mine@example.com',
    });
    expect(await codeOf(auth.provisioning.syncEmailOtpEmail(PLATFORM, [account(12)], 'taken@example.com'))).toBe(
      'CONFLICT',
    );
  });
});

describe('the signed retry for other services', () => {
  test('begin, CLAIMED once, PROCESSING for identical retries until settled, then the result', async () => {
    const { auth } = await createWalletAuthForTest();
    const wallet = await walletWithSession(auth);
    const request = { operation: 'customer.update', targetId: 'Customer:1', body: { email: 'next@example.com' } };
    const challenge = await auth.external.begin(PLATFORM, { ...request, signerAccountIds: [wallet.accountId] });
    const signature = { stamp: await stampWith(wallet.key, challenge.payloadToSign), requestId: challenge.requestId };
    const answers = await Promise.all([1, 2, 3].map(() => auth.external.complete(PLATFORM, { ...request, signature })));
    expect(answers.map((a) => a.state).sort()).toEqual(['CLAIMED', 'PROCESSING', 'PROCESSING']);
    await auth.external.settle(PLATFORM, { requestId: challenge.requestId, result: { id: 'Customer:1' } });
    expect(await auth.external.complete(PLATFORM, { ...request, signature })).toEqual({
      state: 'SETTLED',
      requestId: challenge.requestId,
      result: { id: 'Customer:1' },
    });
    expect(
      await codeOf(auth.external.complete(PLATFORM, { ...request, body: { email: 'other@example.com' }, signature })),
    ).toBe('REQUEST_ID_ALREADY_USED');
  });

  test('a settled failure is answered with its code; internal operation names are refused', async () => {
    const { auth } = await createWalletAuthForTest();
    const wallet = await walletWithSession(auth);
    const request = { operation: 'customer.update', targetId: 'Customer:2', body: {} };
    const challenge = await auth.external.begin(PLATFORM, { ...request, signerAccountIds: [wallet.accountId] });
    const signature = { stamp: await stampWith(wallet.key, challenge.payloadToSign), requestId: challenge.requestId };
    expect((await auth.external.complete(PLATFORM, { ...request, signature })).state).toBe('CLAIMED');
    await auth.external.settle(PLATFORM, {
      requestId: challenge.requestId,
      errorCode: 'EMAIL_OTP_CREDENTIAL_SYNC_FAILED',
      errorMessage: 'sync failed',
    });
    expect(await codeOf(auth.external.complete(PLATFORM, { ...request, signature }))).toBe(
      'EMAIL_OTP_CREDENTIAL_SYNC_FAILED',
    );
    expect(
      await codeOf(
        auth.external.begin(PLATFORM, { ...request, operation: 'wallet.export', signerAccountIds: [wallet.accountId] }),
      ),
    ).toBe('INVALID_INPUT');
    expect(await codeOf(auth.external.begin(PLATFORM, { ...request, signerAccountIds: [] }))).toBe('INVALID_INPUT');
  });
});
