import type { AppError } from '../../../../lib/errors';
import { createWalletAuthForTest, PLATFORM, signed, signInOtp, walletWithSession } from './wallet-auth.fixture';

const settle = (promise: Promise<unknown>) => promise.then((v) => v, (err: AppError) => err.code);

async function walletWithTwoCredentials() {
  const test = await createWalletAuthForTest();
  const { auth } = test;
  const email = await walletWithSession(auth, { phone: '+14155550142' });
  const added = await signed(
    email.key,
    (s) => auth.credentials.create(PLATFORM, { type: 'SMS_OTP', accountId: email.accountId }, s),
  );
  if (added.kind !== 'result') throw new Error('SMS_OTP not added');
  const smsId = (added.result.authMethod as { id: string }).id;
  const sms = await signInOtp(auth, smsId, 'SMS_OTP');
  return { ...test, email, sms: { ...sms, credentialId: smsId } };
}

describe('revoking credentials', () => {
  test('revoking a credential ends its sessions and keeps the others', async () => {
    const { auth, email, sms } = await walletWithTwoCredentials();
    const revoked = await signed(sms.key, (s) => auth.credentials.revoke(PLATFORM, email.credentialId, {}, s));
    expect(revoked).toEqual({ kind: 'result', result: {} });
    expect((await auth.credentials.list(PLATFORM, email.accountId)).map((c) => c.type)).toEqual(['SMS_OTP']);
    expect((await auth.sessions.list(PLATFORM, email.accountId)).map((s) => s.id)).toEqual([sms.session.id]);
  });

  test('two concurrent revokes, each signed by the other credential: one wins, one credential remains', async () => {
    const { auth, email, sms } = await walletWithTwoCredentials();
    const firstLeg = async (id: string) => {
      const challenge = await auth.credentials.revoke(PLATFORM, id, {}, undefined);
      if (challenge.kind !== 'challenge') throw new Error('expected a challenge');
      return challenge.challenge;
    };
    const [c1, c2] = await Promise.all([firstLeg(email.credentialId), firstLeg(sms.credentialId)]);
    const { stampWith } = await import('./wallet-auth.fixture');
    const results = await Promise.all([
      settle(
        auth.credentials.revoke(PLATFORM, email.credentialId, {}, {
          stamp: await stampWith(sms.key, c1.payloadToSign),
          requestId: c1.requestId,
        }),
      ),
      settle(
        auth.credentials.revoke(PLATFORM, sms.credentialId, {}, {
          stamp: await stampWith(email.key, c2.payloadToSign),
          requestId: c2.requestId,
        }),
      ),
    ]);
    expect(results.filter((r) => typeof r === 'object')).toHaveLength(1);
    expect(results.filter((r) => typeof r === 'string')).toEqual([
      expect.stringMatching(/^(LAST_CREDENTIAL|WALLET_SIGNATURE_INVALID)$/),
    ]);
    expect(await auth.credentials.list(PLATFORM, email.accountId)).toHaveLength(1);
  });

  test('create: a bad type, account id or missing wallet are refused', async () => {
    const { auth } = await createWalletAuthForTest();
    expect(
      await settle(
        auth.credentials.create(PLATFORM, {
          type: 'PIN',
          accountId: 'InternalAccount:00000000-0000-4000-8000-000000000001',
        }, undefined),
      ),
    ).toBe('INVALID_INPUT');
    expect(await settle(auth.credentials.create(PLATFORM, { type: 'EMAIL_OTP', accountId: 'x' }, undefined))).toBe(
      'INVALID_INPUT',
    );
    expect(
      await settle(
        auth.credentials.create(PLATFORM, {
          type: 'EMAIL_OTP',
          accountId: 'InternalAccount:00000000-0000-4000-8000-000000000001',
        }, undefined),
      ),
    ).toBe('REFERENCE_NOT_FOUND');
  });
});
