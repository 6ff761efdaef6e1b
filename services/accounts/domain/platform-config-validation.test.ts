import { AppError, type FieldError } from '../../../lib/errors';
import { fieldErrorsOf } from '../test-fixtures/field-errors';
import { FULL_CONFIG_UPDATE } from '../test-fixtures/platform-config-bodies';
import { validatePlatformConfigUpdate } from './platform-config-validation';

const fee = (patch: Record<string, unknown>) => ({ feeConfigs: [{ ...FULL_CONFIG_UPDATE.feeConfigs[0], ...patch }] });
const currency = (patch: Record<string, unknown>) => ({ supportedCurrencies: [{ ...FULL_CONFIG_UPDATE.supportedCurrencies[0], ...patch }] });

describe('PATCH /config validation', () => {
  test('a body with every member is accepted as given (supportedCurrencies as currencyConfigs)', () => {
    const { supportedCurrencies, ...rest } = FULL_CONFIG_UPDATE;
    expect(validatePlatformConfigUpdate(FULL_CONFIG_UPDATE)).toEqual({ ...rest, currencyConfigs: supportedCurrencies });
  });

  test('read-only members are ignored; an empty body changes nothing', () => {
    expect(validatePlatformConfigUpdate({ id: 'PlatformConfig:x', isRegulatedFinancialInstitution: true, createdAt: 'now' })).toEqual({});
  });

  test.each<[string, Record<string, unknown>, FieldError]>([
    ['umaDomain not a domain', { umaDomain: 'not a domain' }, { field: 'umaDomain', message: expect.stringMatching(/^must match/) as unknown as string, constraint: expect.objectContaining({ pattern: expect.any(String) }) as unknown as FieldError['constraint'] }],
    ['webhook not a URL', { webhookEndpoint: 'webhooks' }, { field: 'webhookEndpoint', message: 'must be an absolute http or https URL', constraint: { format: 'url' } }],
    ['webhook over http to another host', { webhookEndpoint: 'http://example.com/hook' }, { field: 'webhookEndpoint', message: 'must use https (http only for localhost)' }],
    ['no currencies', { supportedCurrencies: [] }, { field: 'supportedCurrencies', message: 'must list at least one currency' }],
    ['unknown currency', currency({ currencyCode: 'JPY' }), { field: 'supportedCurrencies[0].currencyCode', message: expect.stringMatching(/^must be one of USD,/) as unknown as string, constraint: { enum: expect.arrayContaining(['USD']) as unknown as string[] } }],
    ['max below min', currency({ maxAmount: 10 }), { field: 'supportedCurrencies[0].maxAmount', message: 'must not be less than minAmount' }],
    ['negative min', currency({ minAmount: -1 }), { field: 'supportedCurrencies[0].minAmount', message: `must be an integer between 0 and ${Number.MAX_SAFE_INTEGER}` }],
    ['fractional max', currency({ maxAmount: 10.5 }), { field: 'supportedCurrencies[0].maxAmount', message: `must be an integer between 0 and ${Number.MAX_SAFE_INTEGER}` }],
    ['unknown counterparty field', currency({ requiredCounterpartyFields: [{ name: 'SHOE_SIZE', mandatory: true }] }), { field: 'supportedCurrencies[0].requiredCounterpartyFields[0].name', message: expect.stringMatching(/^must be one of FULL_NAME/) as unknown as string, constraint: { enum: expect.arrayContaining(['FULL_NAME']) as unknown as string[] } }],
    ['mandatory missing', currency({ requiredCounterpartyFields: [{ name: 'EMAIL' }] }), { field: 'supportedCurrencies[0].requiredCounterpartyFields[0].mandatory', message: 'is required' }],
    ['transaction types missing', currency({ enabledTransactionTypes: undefined }), { field: 'supportedCurrencies[0].enabledTransactionTypes', message: 'is required', constraint: { enum: ['INCOMING', 'OUTGOING'] } }],
    ['otp too short', { embeddedWalletConfig: { otpLength: 3 } }, { field: 'embeddedWalletConfig.otpLength', message: 'must be an integer between 4 and 12' }],
    ['otp expiry over a day', { embeddedWalletConfig: { expirationSeconds: 86401 } }, { field: 'embeddedWalletConfig.expirationSeconds', message: 'must be an integer between 1 and 86400' }],
    ['alphanumeric not boolean', { embeddedWalletConfig: { alphanumeric: 'yes' } }, { field: 'embeddedWalletConfig.alphanumeric', message: 'must be a boolean' }],
    ['sender not an email', { embeddedWalletConfig: { sendFromEmailAddress: 'acme' } }, { field: 'embeddedWalletConfig.sendFromEmailAddress', message: 'must be a valid email address', constraint: { format: 'email' } }],
    ['card logo over http', { cardTokenization2faConfig: { logoUrl: 'http://acme.com/l.png' } }, { field: 'cardTokenization2faConfig.logoUrl', message: 'must match ^https:\\/\\/', constraint: { pattern: '^https:\\/\\/', format: 'url' } }],
    ['card sms body too long', { cardTokenization2faConfig: { sms: { bodyText: 'x'.repeat(481) } } }, { field: 'cardTokenization2faConfig.sms.bodyText', message: 'must be between 1 and 480 characters', constraint: { minLength: 1, maxLength: 480 } }],
    ['fee bps over 100%', fee({ variableFeeBps: 10001 }), { field: 'feeConfigs[0].variableFeeBps', message: 'must be an integer between 0 and 10000' }],
    ['fee type unknown', fee({ feeType: 'WIRE' }), { field: 'feeConfigs[0].feeType', message: 'must be one of CROSS_CURRENCY_TRANSACTION', constraint: { enum: ['CROSS_CURRENCY_TRANSACTION'] } }],
    ['fixed fee missing', fee({ fixedFee: undefined }), { field: 'feeConfigs[0].fixedFee', message: 'is required' }],
    ['fixed fee in another currency', fee({ fixedFee: { amount: 1, currency: 'EUR' } }), { field: 'feeConfigs[0].fixedFee.currency', message: 'must equal sourceCurrency' }],
    ['limit currency unknown', { limits: [{ currency: 'XYZ', dailyVolume: 5 }] }, { field: 'limits[0].currency', message: expect.stringMatching(/^must be one of/) as unknown as string, constraint: { enum: expect.any(Array) as unknown as string[] } }],
    ['limit zero', { limits: [{ currency: 'USD', maxSingleTransaction: 0 }] }, { field: 'limits[0].maxSingleTransaction', message: `must be an integer between 1 and ${Number.MAX_SAFE_INTEGER}` }],
    ['limit repeated', { limits: [{ currency: 'USD', dailyVolume: 5 }, { currency: 'USD', dailyVolume: 6 }] }, { field: 'limits[1]', message: 'repeats an earlier entry of the same key' }],
  ])('%s: INVALID_INPUT naming exactly that field', (_name, body, expected) => {
    expect(fieldErrorsOf(() => validatePlatformConfigUpdate(body))).toEqual([expected]);
  });

  test('every invalid member is reported at once', () => {
    const errors = fieldErrorsOf(() => validatePlatformConfigUpdate({ webhookEndpoint: 5, embeddedWalletConfig: { otpLength: 2, appName: '' }, limits: 'USD' }));
    expect(errors.map((e) => e.field)).toEqual(['webhookEndpoint', 'embeddedWalletConfig.appName', 'embeddedWalletConfig.otpLength', 'limits']);
  });

  test('a fee config of another source currency is NOT_IMPLEMENTED', () => {
    const err = (() => { try { validatePlatformConfigUpdate(fee({ sourceCurrency: 'EUR', fixedFee: { amount: 1, currency: 'EUR' } })); } catch (e) { return e; } })();
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'NOT_IMPLEMENTED', details: { field: 'feeConfigs', sourceCurrency: 'EUR' } });
  });
});
