import type { AppError } from '../../../../lib/errors';
import { createWalletAuthForTest, PLATFORM } from './wallet-auth.fixture';

const codeOf = (promise: Promise<unknown>) => promise.then(() => 'OK', (err: AppError) => err.code);
const ACCOUNT = 'InternalAccount:00000000-0000-4000-8000-000000000101';

async function provisioned(options: Parameters<typeof createWalletAuthForTest>[0]) {
  const test = await createWalletAuthForTest(options);
  const { emailOtpCredential } = await test.auth.provisioning.provision({
    accountId: ACCOUNT,
    platformId: PLATFORM,
    customerEmail: 'otp@example.com',
  });
  return { ...test, credentialId: emailOtpCredential!.id };
}

describe('OTP issue', () => {
  test('outside the sandbox the platform embeddedWalletConfig shapes the code and the email', async () => {
    const { auth, sent, credentialId } = await provisioned({
      env: { EMBEDDED_WALLET_SANDBOX: 'false' },
      platform: {
        id: PLATFORM,
        embeddedWalletConfig: {
          appName: 'Acme Wallet',
          otpLength: 8,
          alphanumeric: true,
          sendFromEmailAddress: 'no-reply@acme.example',
        },
      },
    });
    const answer = await auth.challenge.challenge(PLATFORM, credentialId, {});
    expect(answer.kind).toBe('authMethod');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      channel: 'EMAIL',
      to: 'otp@example.com',
      subject: 'Acme Wallet verification code',
    });
    expect(sent[0].body).toMatch(/verification code is [2-9A-Z]{8}\./);
    expect(sent[0].body).toContain('no-reply@acme.example');
  });

  test('in the sandbox nothing is delivered', async () => {
    const { auth, sent, credentialId } = await provisioned({});
    await auth.challenge.challenge(PLATFORM, credentialId, {});
    expect(sent).toEqual([]);
  });

  test('a re-issue inside the interval: RATE_LIMITED with retryAfterSeconds', async () => {
    const { auth, credentialId } = await provisioned({ env: { WALLET_OTP_REISSUE_INTERVAL_MS: '30000' } });
    await auth.challenge.challenge(PLATFORM, credentialId, {});
    const refused = await auth.challenge.challenge(PLATFORM, credentialId, {}).catch((err: AppError) => err);
    expect(refused).toMatchObject({ code: 'RATE_LIMITED', details: { retryAfterSeconds: 30 } });
  });

  test('a failed delivery answers UNAVAILABLE and does not count against the re-issue limit', async () => {
    const { auth, credentialId } = await provisioned({ env: { EMBEDDED_WALLET_SANDBOX: 'false' }, deliveryDown: true });
    expect(await codeOf(auth.challenge.challenge(PLATFORM, credentialId, {}))).toBe('UNAVAILABLE');
    expect(await codeOf(auth.challenge.challenge(PLATFORM, credentialId, {}))).toBe('UNAVAILABLE');
  });

  test('an unknown credential, or one of another platform: NOT_FOUND', async () => {
    const { auth, credentialId } = await provisioned({});
    expect(await codeOf(auth.challenge.challenge(PLATFORM, 'AuthMethod:00000000-0000-4000-8000-000000000000', {})))
      .toBe('REFERENCE_NOT_FOUND');
    expect(await codeOf(auth.challenge.challenge('Platform:other', credentialId, {}))).toBe('REFERENCE_NOT_FOUND');
  });
});
