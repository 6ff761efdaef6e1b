import { activityTypeOf, passkeyChallengeOf, payloadToSign } from './payload-to-sign';

describe('payloadToSign', () => {
  const input = {
    operation: 'wallet.export',
    platformId: 'Platform:p',
    requestId: 'Request:r',
    issuedAt: new Date(1775681700000),
    requestHash: 'ab'.repeat(32),
    parameters: { targetPublicKey: '04aa' },
  };
  test('canonical activity JSON binding the request', () => {
    expect(payloadToSign(input)).toBe(
      '{"organizationId":"Platform:p","parameters":{"requestHash":"' + 'ab'.repeat(32) + '","targetPublicKey":"04aa"},'
        + '"requestId":"Request:r","timestampMs":"1775681700000","type":"ACTIVITY_TYPE_WALLET_EXPORT"}',
    );
  });
  test('the request hash cannot be overridden by parameters', () => {
    expect(JSON.parse(payloadToSign({ ...input, parameters: { requestHash: 'x' } })).parameters.requestHash).toBe(
      input.requestHash,
    );
  });
  test('activity names', () => {
    expect(activityTypeOf('credential.verify-otp')).toBe('ACTIVITY_TYPE_CREDENTIAL_VERIFY_OTP');
  });
  test('passkey challenge is lowercase hex sha256', () => {
    expect(passkeyChallengeOf('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
