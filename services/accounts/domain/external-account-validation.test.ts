import type { FieldError } from '../../../lib/errors';
import { fieldErrorsOf } from '../test-fixtures/field-errors';
import { ACCOUNT_INFO, externalAccountBody } from '../test-fixtures/request-bodies';
import { validateExternalAccountCreate } from './external-account-validation';

type Variant = keyof typeof ACCOUNT_INFO;
const errorsFor = (variant: Variant, info: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
  const body = externalAccountBody(variant, extra);
  Object.assign(body.accountInfo, info);
  return fieldErrorsOf(() => validateExternalAccountCreate(body, 'CUSTOMER'));
};

test.each(Object.keys(ACCOUNT_INFO) as Variant[])('a valid %s is accepted as given', (variant) => {
  const body = externalAccountBody(variant);
  // Bank accounts gain their default rails; wallets have none.
  const accountInfo = variant.endsWith('_ACCOUNT') ? { ...body.accountInfo, paymentRails: expect.any(Array) } : body.accountInfo;
  expect(validateExternalAccountCreate(body, 'PLATFORM')).toEqual({ currency: body.currency, defaultUmaDepositAccount: false, accountInfo });
});

test.each<[string, Variant, string[]]>([
  ['USD: ACH, WIRE, RTP, FEDNOW', 'USD_ACCOUNT', ['ACH', 'WIRE', 'RTP', 'FEDNOW']],
  ['MXN: SPEI', 'MXN_ACCOUNT', ['SPEI']],
  ['EUR: SEPA, SEPA_INSTANT', 'EUR_ACCOUNT', ['SEPA', 'SEPA_INSTANT']],
  ['BRL: PIX', 'BRL_ACCOUNT', ['PIX']],
  ['INR by account number: NEFT, RTGS', 'INR_ACCOUNT', ['NEFT', 'RTGS']],
])('paymentRails default to every rail of the variant (%s)', (_name, variant, rails) => {
  expect(validateExternalAccountCreate(externalAccountBody(variant), 'PLATFORM').accountInfo.paymentRails).toEqual(rails);
});

test('paymentRails given are kept (distinct); a rail of another variant is refused; none listed means the defaults', () => {
  const body = externalAccountBody('USD_ACCOUNT');
  const asked = (paymentRails: unknown) => ({ ...body, accountInfo: { ...body.accountInfo, paymentRails } });
  expect(validateExternalAccountCreate(asked(['RTP', 'RTP', 'ACH']), 'PLATFORM').accountInfo.paymentRails).toEqual(['RTP', 'ACH']);
  expect(() => validateExternalAccountCreate(asked(['SPEI']), 'PLATFORM')).toThrow(expect.objectContaining({
    code: 'INVALID_INPUT', details: { errors: [expect.objectContaining({ field: 'accountInfo.paymentRails[0]', constraint: { enum: ['ACH', 'WIRE', 'RTP', 'FEDNOW'] } })] },
  }));
  expect(validateExternalAccountCreate(asked([]), 'PLATFORM').accountInfo.paymentRails).toEqual(['ACH', 'WIRE', 'RTP', 'FEDNOW']);
});

describe.each<[string, Variant, Record<string, unknown>, FieldError]>([
  // USD (ACH)
  ['USD routing number checksum', 'USD_ACCOUNT', { routingNumber: '123456789' }, { field: 'accountInfo.routingNumber', message: 'is not a valid ABA routing number (check digit mismatch)' }],
  ['USD routing number length', 'USD_ACCOUNT', { routingNumber: '02100002' }, { field: 'accountInfo.routingNumber', message: 'must be exactly 9 characters', constraint: { minLength: 9, maxLength: 9 } }],
  ['USD routing number letters', 'USD_ACCOUNT', { routingNumber: '02100002A' }, { field: 'accountInfo.routingNumber', message: 'must match ^[0-9]{9}$', constraint: { pattern: '^[0-9]{9}$' } }],
  ['USD account number missing', 'USD_ACCOUNT', { accountNumber: undefined }, { field: 'accountInfo.accountNumber', message: 'is required' }],
  ['USD account number too long', 'USD_ACCOUNT', { accountNumber: '1'.repeat(35) }, { field: 'accountInfo.accountNumber', message: 'must be between 1 and 34 characters', constraint: { minLength: 1, maxLength: 34 } }],
  ['USD bank account type', 'USD_ACCOUNT', { bankAccountType: 'BROKERAGE' }, { field: 'accountInfo.bankAccountType', message: 'must be one of CHECKING, SAVINGS', constraint: { enum: ['CHECKING', 'SAVINGS'] } }],
  ['USD beneficiary missing', 'USD_ACCOUNT', { beneficiary: undefined }, { field: 'accountInfo.beneficiary', message: 'is required' }],
  ['USD beneficiary name missing', 'USD_ACCOUNT', { beneficiary: { beneficiaryType: 'INDIVIDUAL' } }, { field: 'accountInfo.beneficiary.fullName', message: 'is required' }],
  ['USD business beneficiary legal name', 'USD_ACCOUNT', { beneficiary: { beneficiaryType: 'BUSINESS', fullName: 'X' } }, { field: 'accountInfo.beneficiary.legalName', message: 'is required' }],
  // MXN (CLABE)
  ['MXN CLABE check digit', 'MXN_ACCOUNT', { clabeNumber: '032180000118359718' }, { field: 'accountInfo.clabeNumber', message: 'is not a valid CLABE (check digit mismatch)' }],
  ['MXN CLABE length', 'MXN_ACCOUNT', { clabeNumber: '03218000011835971' }, { field: 'accountInfo.clabeNumber', message: 'must be exactly 18 characters', constraint: { minLength: 18, maxLength: 18 } }],
  // EUR (IBAN, BIC)
  ['EUR IBAN check digits', 'EUR_ACCOUNT', { iban: 'DE89370400440532013001' }, { field: 'accountInfo.iban', message: 'is not a valid IBAN (check digits mismatch)' }],
  ['EUR IBAN shape', 'EUR_ACCOUNT', { iban: 'de89370400440532013000' }, { field: 'accountInfo.iban', message: 'must match ^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{11,30}$', constraint: { pattern: '^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{11,30}$' } }],
  ['EUR BIC shape', 'EUR_ACCOUNT', { swiftCode: 'DEUT1EFF' }, { field: 'accountInfo.swiftCode', message: 'must match ^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$', constraint: { pattern: '^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$' } }],
  ['EUR BIC country', 'EUR_ACCOUNT', { swiftCode: 'DEUTXXFF' }, { field: 'accountInfo.swiftCode', message: 'does not contain a valid country code' }],
  ['EUR individual needs residence', 'EUR_ACCOUNT', { beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jo' } }, { field: 'accountInfo.beneficiary.countryOfResidence', message: 'is required' }],
  // BRL (PIX)
  ['BRL pix key type unknown', 'BRL_ACCOUNT', { pixKeyType: 'IBAN' }, { field: 'accountInfo.pixKeyType', message: 'must be one of CPF, CNPJ, EMAIL, PHONE, RANDOM', constraint: { enum: ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'RANDOM'] } }],
  ['BRL CPF key check digits', 'BRL_ACCOUNT', { pixKeyType: 'CPF', pixKey: '52998224726' }, { field: 'accountInfo.pixKey', message: 'must be a valid CPF (11 digits) for pixKeyType CPF' }],
  ['BRL CNPJ key', 'BRL_ACCOUNT', { pixKeyType: 'CNPJ', pixKey: '11222333000180' }, { field: 'accountInfo.pixKey', message: 'must be a valid CNPJ (14 digits) for pixKeyType CNPJ' }],
  ['BRL email key', 'BRL_ACCOUNT', { pixKeyType: 'EMAIL', pixKey: 'ana' }, { field: 'accountInfo.pixKey', message: 'must be an email address for pixKeyType EMAIL' }],
  ['BRL phone key', 'BRL_ACCOUNT', { pixKeyType: 'PHONE', pixKey: '+14155551234' }, { field: 'accountInfo.pixKey', message: 'must be a Brazilian phone number +55 followed by 10 or 11 digits for pixKeyType PHONE' }],
  ['BRL random key', 'BRL_ACCOUNT', { pixKeyType: 'RANDOM', pixKey: 'not-a-uuid' }, { field: 'accountInfo.pixKey', message: 'must be a UUID for pixKeyType RANDOM' }],
  ['BRL tax id check digits', 'BRL_ACCOUNT', { taxId: '11222333000180' }, { field: 'accountInfo.taxId', message: 'is not a valid CNPJ (check digits mismatch)' }],
  ['BRL tax id 12 digits', 'BRL_ACCOUNT', { taxId: '112223330001' }, { field: 'accountInfo.taxId', message: 'must be a CPF (11 digits) or a CNPJ (14 digits)' }],
  // INR (IFSC + account, or UPI)
  ['INR IFSC shape', 'INR_ACCOUNT', { ifsc: 'HDFC1001234' }, { field: 'accountInfo.ifsc', message: 'must match ^[A-Z]{4}0[A-Z0-9]{6}$', constraint: { pattern: '^[A-Z]{4}0[A-Z0-9]{6}$' } }],
  ['INR account number short', 'INR_ACCOUNT', { accountNumber: '12345678' }, { field: 'accountInfo.accountNumber', message: 'must be between 9 and 18 characters', constraint: { minLength: 9, maxLength: 18 } }],
  ['INR without UPI needs IFSC', 'INR_ACCOUNT', { ifsc: undefined }, { field: 'accountInfo.ifsc', message: 'is required' }],
  ['INR UPI id shape', 'INR_ACCOUNT', { accountNumber: undefined, ifsc: undefined, vpa: 'ana.okicici' }, { field: 'accountInfo.vpa', message: 'must match ^[a-zA-Z0-9.\\-_]+@[a-zA-Z0-9]+$', constraint: { pattern: '^[a-zA-Z0-9.\\-_]+@[a-zA-Z0-9]+$' } }],
])('bank account: %s', (_name, variant, info, expected) => {
  test('reports exactly that field', () => {
    expect(errorsFor(variant, info)).toEqual([expected]);
  });
});

test('INR by UPI id alone is accepted', () => {
  const body = externalAccountBody('INR_ACCOUNT');
  body.accountInfo = { accountType: 'INR_ACCOUNT', vpa: 'ana@okicici', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ana' } };
  expect(validateExternalAccountCreate(body, 'CUSTOMER').accountInfo).toEqual({ ...body.accountInfo, paymentRails: ['UPI'] });
});

test.each<[string, Record<string, unknown>, FieldError]>([
  ['currency of another account type', { currency: 'EUR' }, { field: 'currency', message: 'must be one of USD', constraint: { enum: ['USD'] } }],
  ['customerId not a customer id', { customerId: 'ExternalAccount:1' }, { field: 'customerId', message: expect.stringMatching(/^must match/) as unknown as string, constraint: { pattern: '^Customer:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' } }],
  ['ownershipType unknown', { ownershipType: 'MINE' }, { field: 'ownershipType', message: 'must be one of FIRST_PARTY, THIRD_PARTY', constraint: { enum: ['FIRST_PARTY', 'THIRD_PARTY'] } }],
  ['defaultUmaDepositAccount a string', { defaultUmaDepositAccount: 'yes' }, { field: 'defaultUmaDepositAccount', message: 'must be a boolean' }],
])('top level: %s', (_name, extra, expected) => {
  expect(errorsFor('USD_ACCOUNT', {}, extra)).toEqual([expected]);
});

test('an unsupported accountType lists the supported ones; currency must be known', () => {
  const errors = fieldErrorsOf(() => validateExternalAccountCreate({ currency: 'XYZ', accountInfo: { accountType: 'GBP_ACCOUNT' } }, 'CUSTOMER'));
  expect(errors.map((e) => e.field)).toEqual(['accountInfo.accountType', 'currency']);
  expect(errors[0].constraint?.enum).toEqual(expect.arrayContaining(['USD_ACCOUNT', 'MXN_ACCOUNT', 'EUR_ACCOUNT', 'BRL_ACCOUNT', 'INR_ACCOUNT', 'SOLANA_WALLET', 'LIGHTNING']));
});

test('missing currency and accountInfo are both reported', () => {
  expect(fieldErrorsOf(() => validateExternalAccountCreate({}, 'PLATFORM'))).toEqual([
    { field: 'accountInfo', message: 'is required' },
    { field: 'currency', message: 'is required', constraint: { enum: expect.arrayContaining(['USD']) as unknown as string[] } },
  ]);
});

test('the platform form ignores customerId and defaultUmaDepositAccount', () => {
  const body = externalAccountBody('USD_ACCOUNT', { customerId: 'junk', defaultUmaDepositAccount: true });
  expect(validateExternalAccountCreate(body, 'PLATFORM')).not.toHaveProperty('customerId');
});
