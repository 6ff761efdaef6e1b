import { referenceSchemaValidator } from './reference-contract';

/**
 * The request bodies an SDK built from the reference sends to the SCA operations (the ones the
 * HTTP tests in test/http/sca*.test.ts send): the reference's schemas accept each, so the SDK's
 * requests and ours agree.
 */
const REQUESTS: [string, unknown][] = [
  ['ScaFactorEnrollRequestOneOf', { type: 'TOTP' }],
  ['ScaFactorEnrollRequestOneOf', { type: 'PASSKEY' }],
  ['ScaFactorConfirmRequestOneOf', {
    type: 'TOTP',
    secret: '3132333435363738393031323334353637383930',
    code: '123456',
  }],
  ['ScaFactorConfirmRequestOneOf', {
    type: 'PASSKEY',
    origin: 'https://app.example.com',
    credential: { id: 'abc', rawId: 'abc', type: 'public-key', response: {} },
  }],
  ['ScaLoginStartRequest', { factor: 'SMS_OTP' }],
  ['ScaLoginCompleteRequest', {
    factor: 'SMS_OTP',
    endUserIpAddress: '203.0.113.4',
    challengeId: 'ScaChallenge:1',
    code: '123456',
  }],
  ['ScaLoginCompleteRequest', {
    factor: 'PASSKEY',
    endUserIpAddress: '203.0.113.4',
    passkeyAssertion: { id: 'abc' },
    origin: 'https://app.example.com',
  }],
  ['RecordSecurityEventRequest', { eventType: 'FAILED_LOGIN_ATTEMPT' }],
  ['TwoFactorResetStartRequest', { factor: 'SMS_OTP' }],
  ['TwoFactorResetCompleteRequest', { mobile: { countryCode: '+33', number: '698765432' } }],
  ['BeneficiaryTrustConfirmRequest', { challengeId: 'ScaChallenge:1', code: '123456' }],
  ['ScaAuthorization', { code: '123456' }],
  ['ScaAuthorization', { passkeyAssertion: { id: 'abc' }, origin: 'https://app.example.com' }],
  ['ExecuteQuoteRequest', { scaFactor: 'PASSKEY' }],
];

test.each(REQUESTS)('the reference accepts a %s such as %j', (schema, body) => {
  const validate = referenceSchemaValidator(schema);
  expect(validate(body) ? [] : validate.errors).toEqual([]);
});

test('and refuses what the gateway refuses too: an unknown factor, an event type not listed', () => {
  expect(referenceSchemaValidator('ScaLoginStartRequest')({ factor: 'EMAIL' })).toBe(false);
  expect(referenceSchemaValidator('RecordSecurityEventRequest')({ eventType: 'LOGGED_IN' })).toBe(false);
});
