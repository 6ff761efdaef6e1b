import {
  DEFAULT_EMBEDDED_WALLET_CONFIG,
  normalizeEmbeddedWalletConfig,
  otpAlphabet,
  otpMessage,
} from './embedded-wallet-config';
import { reissueWaitSeconds } from './otp-rules';

describe('normalizeEmbeddedWalletConfig', () => {
  test('absent config: the documented defaults', () => {
    expect(normalizeEmbeddedWalletConfig(undefined)).toEqual(DEFAULT_EMBEDDED_WALLET_CONFIG);
    expect(DEFAULT_EMBEDDED_WALLET_CONFIG).toMatchObject({
      otpLength: 6,
      alphanumeric: false,
      expirationSeconds: 300,
      sendFromEmailSenderName: 'Notifications',
    });
  });
  test('valid values are taken, invalid ones fall back', () => {
    const config = normalizeEmbeddedWalletConfig({
      appName: 'Acme',
      otpLength: 8,
      alphanumeric: true,
      expirationSeconds: 90000,
      sendFromEmailAddress: 'a@acme.com',
    });
    expect(config).toMatchObject({
      appName: 'Acme',
      otpLength: 8,
      alphanumeric: true,
      expirationSeconds: 300,
      sendFromEmailAddress: 'a@acme.com',
    });
    expect(normalizeEmbeddedWalletConfig({ otpLength: 3 }).otpLength).toBe(6);
    expect(normalizeEmbeddedWalletConfig({ otpLength: 12 }).otpLength).toBe(12);
  });
  test('alphabet follows alphanumeric', () => {
    expect(otpAlphabet(DEFAULT_EMBEDDED_WALLET_CONFIG)).toBe('0123456789');
    expect(otpAlphabet({ ...DEFAULT_EMBEDDED_WALLET_CONFIG, alphanumeric: true })).toMatch(/^[A-Z2-9]+$/);
  });
  test('the message names the app, the code and the expiry', () => {
    const email = otpMessage(
      { ...DEFAULT_EMBEDDED_WALLET_CONFIG, appName: 'Acme', sendFromEmailAddress: 'no@acme.com' },
      'EMAIL',
      '123456',
    );
    expect(email.subject).toBe('Acme verification code');
    expect(email.body).toContain('123456');
    expect(email.body).toContain('5 minutes');
    expect(email.body).toContain('Notifications <no@acme.com>');
    expect(otpMessage(DEFAULT_EMBEDDED_WALLET_CONFIG, 'SMS', '42').subject).toBe('');
  });
});

describe('reissueWaitSeconds', () => {
  const now = new Date('2026-01-01T00:00:30.000Z');
  test.each([
    [undefined, 0],
    ['2026-01-01T00:00:00.000Z', 0],
    ['2026-01-01T00:00:00.500Z', 1],
    ['2026-01-01T00:00:29.000Z', 29],
  ])('issued %s -> wait %i s', (issuedAt, expected) => {
    expect(reissueWaitSeconds(issuedAt ? { issuedAt } : undefined, now, 30000)).toBe(expected);
  });
});
