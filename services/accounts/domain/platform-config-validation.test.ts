import { AppError, type FieldError } from '../../../lib/errors';
import { fieldErrorsOf } from '../test-fixtures/field-errors';
import { FULL_CONFIG_UPDATE } from '../test-fixtures/platform-config-bodies';
import { configChangesOf } from '../test-fixtures/request-bodies';
import { validatePlatformConfigUpdate } from './platform-config-validation';

const validate = (body: object) => validatePlatformConfigUpdate(configChangesOf(body));
const fee = (patch: Record<string, unknown>) => ({ feeConfigs: [{ ...FULL_CONFIG_UPDATE.feeConfigs[0], ...patch }] });
const currency = (patch: Record<string, unknown>) => ({
  supportedCurrencies: [{ ...FULL_CONFIG_UPDATE.supportedCurrencies[0], ...patch }],
});

describe("PATCH /config rules (the shape is the gateway contract's)", () => {
  test('a message with every member is accepted as given (supportedCurrencies as currencyConfigs)', () => {
    const { supportedCurrencies, ...rest } = FULL_CONFIG_UPDATE;
    expect(validate(FULL_CONFIG_UPDATE)).toEqual({ ...rest, currencyConfigs: supportedCurrencies });
  });

  test('an empty message changes nothing', () => {
    expect(validate({})).toEqual({});
  });

  test.each<[string, Record<string, unknown>, FieldError]>([
    ['webhook over http to another host', { webhookEndpoint: 'http://example.com/hook' }, {
      field: 'webhookEndpoint',
      message: 'must use https (http only for localhost)',
    }],
    ['webhook not a URL (a caller that skipped the gateway)', { webhookEndpoint: 'webhooks' }, {
      field: 'webhookEndpoint',
      message: 'must be an absolute http or https URL',
    }],
    ['no currencies', { supportedCurrencies: [] }, {
      field: 'supportedCurrencies',
      message: 'must list at least one currency',
    }],
    ['unknown currency', currency({ currencyCode: 'JPY' }), {
      field: 'supportedCurrencies[0].currencyCode',
      message: expect.stringMatching(/^must be one of USD,/) as unknown as string,
      constraint: { enum: expect.arrayContaining(['USD']) as unknown as string[] },
    }],
    ['max below min', currency({ maxAmount: 10 }), {
      field: 'supportedCurrencies[0].maxAmount',
      message: 'must not be less than minAmount',
    }],
    ['mandatory missing', currency({ requiredCounterpartyFields: [{ name: 'EMAIL' }] }), {
      field: 'supportedCurrencies[0].requiredCounterpartyFields[0].mandatory',
      message: 'is required',
    }],
    ['transaction types missing', currency({ enabledTransactionTypes: undefined }), {
      field: 'supportedCurrencies[0].enabledTransactionTypes',
      message: 'is required',
    }],
    ['fixed fee missing', fee({ fixedFee: undefined }), { field: 'feeConfigs[0].fixedFee', message: 'is required' }],
    ['fixed fee in another currency', fee({ fixedFee: { amount: 1, currency: 'EUR' } }), {
      field: 'feeConfigs[0].fixedFee.currency',
      message: 'must equal sourceCurrency',
    }],
    ['limit currency unknown', { limits: [{ currency: 'XYZ', dailyVolume: 5 }] }, {
      field: 'limits[0].currency',
      message: expect.stringMatching(/^must be one of/) as unknown as string,
      constraint: { enum: expect.any(Array) as unknown as string[] },
    }],
    ['negative min', currency({ minAmount: -1 }), {
      field: 'supportedCurrencies[0].minAmount',
      message: `must be an integer between 0 and ${Number.MAX_SAFE_INTEGER}`,
    }],
    ['fee bps over 100%', fee({ variableFeeBps: 10001 }), {
      field: 'feeConfigs[0].variableFeeBps',
      message: 'must be an integer between 0 and 10000',
    }],
    ['negative fixed fee', fee({ fixedFee: { amount: -1, currency: 'USD' } }), {
      field: 'feeConfigs[0].fixedFee.amount',
      message: `must be an integer between 0 and ${Number.MAX_SAFE_INTEGER}`,
    }],
    ['limit zero', { limits: [{ currency: 'USD', maxSingleTransaction: 0 }] }, {
      field: 'limits[0].maxSingleTransaction',
      message: `must be an integer between 1 and ${Number.MAX_SAFE_INTEGER}`,
    }],
    ['limit repeated', { limits: [{ currency: 'USD', dailyVolume: 5 }, { currency: 'USD', dailyVolume: 6 }] }, {
      field: 'limits[1]',
      message: 'repeats an earlier entry of the same key',
    }],
    ['currency repeated', {
      supportedCurrencies: [FULL_CONFIG_UPDATE.supportedCurrencies[0], FULL_CONFIG_UPDATE.supportedCurrencies[0]],
    }, { field: 'supportedCurrencies[1]', message: 'repeats an earlier entry of the same key' }],
  ])('%s: INVALID_INPUT naming exactly that field', (_name, body, expected) => {
    expect(fieldErrorsOf(() => validate(body))).toEqual([expected]);
  });

  test('every broken rule is reported at once', () => {
    const errors = fieldErrorsOf(() =>
      validate({ webhookEndpoint: 'http://example.com', ...currency({ maxAmount: 1 }), limits: [{ currency: 'XYZ' }] })
    );
    expect(errors.map((e) => e.field)).toEqual([
      'webhookEndpoint',
      'supportedCurrencies[0].maxAmount',
      'limits[0].currency',
    ]);
  });

  test('a fee config of another source currency is NOT_IMPLEMENTED', () => {
    const err = (() => {
      try {
        validate(fee({ sourceCurrency: 'EUR', fixedFee: { amount: 1, currency: 'EUR' } }));
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'NOT_IMPLEMENTED', details: { field: 'feeConfigs', sourceCurrency: 'EUR' } });
  });
});
