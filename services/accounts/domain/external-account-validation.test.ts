import { EXTERNAL_ACCOUNT_TYPE_NAMES, EXTERNAL_ACCOUNT_TYPES } from '../../../lib/contract/external-account-types';
import { fieldErrorsOf } from '../test-fixtures/field-errors';
import { ACCOUNT_INFO, externalAccountBody, externalAccountRequest } from '../test-fixtures/request-bodies';
import { validateExternalAccountCreate } from './external-account-validation';

/* The rules the domain keeps (shapes and formats are the contract's: gateway/contract tests). */

type Variant = keyof typeof ACCOUNT_INFO;
/** The request message the service receives for a REST body changed by `info` / `extra`. */
const requestFor = (variant: Variant, info: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => {
  const body = externalAccountBody(variant, extra);
  Object.assign(body.accountInfo, info);
  return externalAccountRequest(body);
};
const errorsFor = (variant: Variant, info: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  fieldErrorsOf(() => validateExternalAccountCreate(requestFor(variant, info, extra), 'CUSTOMER'));

test('every type of the table has a valid example', () => {
  expect(Object.keys(ACCOUNT_INFO).sort()).toEqual([...EXTERNAL_ACCOUNT_TYPE_NAMES].sort());
  expect(EXTERNAL_ACCOUNT_TYPE_NAMES).toHaveLength(46);
});

test.each(Object.keys(ACCOUNT_INFO) as Variant[])('a valid %s is accepted as given, with its rails', (variant) => {
  const body = externalAccountBody(variant);
  const spec = EXTERNAL_ACCOUNT_TYPES[variant];
  const draft = validateExternalAccountCreate(externalAccountRequest(body), 'PLATFORM');
  const accountInfo = spec.kind === 'BANK'
    ? { ...body.accountInfo, paymentRails: expect.any(Array) }
    : body.accountInfo;
  expect(draft).toEqual({ currency: body.currency, defaultUmaDepositAccount: false, accountInfo });
  if (spec.kind === 'BANK') {
    expect(draft.accountInfo.paymentRails).not.toHaveLength(0);
    for (const rail of draft.accountInfo.paymentRails as string[]) expect(spec.rails).toContain(rail);
  }
});

test.each<[Variant, Record<string, unknown>, string[]]>([
  ['USD_ACCOUNT', {}, ['ACH', 'WIRE', 'RTP', 'FEDNOW']],
  ['GBP_ACCOUNT', {}, ['FASTER_PAYMENTS']],
  ['INR_ACCOUNT', {}, ['NEFT', 'RTGS']],
  ['INR_ACCOUNT', { accountNumber: undefined, ifsc: undefined, vpa: 'ana@okicici' }, ['UPI']],
  ['KES_ACCOUNT', {}, ['MOBILE_MONEY']],
  ['BDT_ACCOUNT', {}, ['BANK_TRANSFER']],
  ['BDT_ACCOUNT', { accountNumber: undefined, phoneNumber: '+8801712345678' }, ['MOBILE_MONEY']],
  ['BDT_ACCOUNT', { phoneNumber: '+8801712345678' }, ['BANK_TRANSFER', 'MOBILE_MONEY']],
  ['SGD_ACCOUNT', {}, ['PAYNOW', 'FAST', 'BANK_TRANSFER']],
])('%s %j reaches by default %j', (variant, info, rails) => {
  expect(validateExternalAccountCreate(requestFor(variant, info), 'PLATFORM').accountInfo.paymentRails).toEqual(rails);
});

test('paymentRails asked for are kept once each; a rail needs its members', () => {
  expect(
    validateExternalAccountCreate(requestFor('USD_ACCOUNT', { paymentRails: ['RTP', 'RTP', 'ACH'] }), 'PLATFORM')
      .accountInfo.paymentRails,
  ).toEqual(['RTP', 'ACH']);
  expect(errorsFor('BDT_ACCOUNT', { paymentRails: ['MOBILE_MONEY'] })).toEqual([{
    field: 'accountInfo.phoneNumber',
    message: 'is required for MOBILE_MONEY',
  }]);
  expect(errorsFor('COP_ACCOUNT', { bankAccountType: undefined })).toEqual([
    { field: 'accountInfo.bankAccountType', message: expect.stringMatching(/^is required for BANK_TRANSFER/) },
  ]);
});

test.each<[string, Variant, Record<string, unknown>, { field: string; message: string }]>([
  ['USD routing number check digit', 'USD_ACCOUNT', { routingNumber: '123456789' }, {
    field: 'accountInfo.routingNumber',
    message: 'is not a valid ABA routing number (check digit mismatch)',
  }],
  ['USD intermediary routing number check digit', 'USD_ACCOUNT', { intermediaryRoutingNumber: '021000022' }, {
    field: 'accountInfo.intermediaryRoutingNumber',
    message: 'is not a valid ABA routing number (check digit mismatch)',
  }],
  ['MXN CLABE check digit', 'MXN_ACCOUNT', { clabeNumber: '032180000118359718' }, {
    field: 'accountInfo.clabeNumber',
    message: 'is not a valid CLABE (check digit mismatch)',
  }],
  ['EUR IBAN check digits', 'EUR_ACCOUNT', { iban: 'DE89370400440532013001' }, {
    field: 'accountInfo.iban',
    message: 'is not a valid IBAN (check digits mismatch)',
  }],
  ['AED IBAN check digits', 'AED_ACCOUNT', { iban: 'AE070331234567890123457' }, {
    field: 'accountInfo.iban',
    message: 'is not a valid IBAN (check digits mismatch)',
  }],
  ['DKK IBAN check digits', 'DKK_ACCOUNT', { iban: 'DK5000400440116244' }, {
    field: 'accountInfo.iban',
    message: 'is not a valid IBAN (check digits mismatch)',
  }],
  ['EGP IBAN check digits', 'EGP_ACCOUNT', { iban: 'EG380019000500000000263180003' }, {
    field: 'accountInfo.iban',
    message: 'is not a valid IBAN (check digits mismatch)',
  }],
  ['PKR IBAN check digits', 'PKR_ACCOUNT', { iban: 'PK36SCBL0000001123456703' }, {
    field: 'accountInfo.iban',
    message: 'is not a valid IBAN (check digits mismatch)',
  }],
  ['SWIFT IBAN check digits', 'SWIFT_ACCOUNT', { iban: 'GB29NWBK60161331926818' }, {
    field: 'accountInfo.iban',
    message: 'is not a valid IBAN (check digits mismatch)',
  }],
  ['BIC country', 'HKD_ACCOUNT', { swiftCode: 'HSBCXXHHHKH' }, {
    field: 'accountInfo.swiftCode',
    message: 'does not contain a valid country code',
  }],
  ['BRL CPF key check digits', 'BRL_ACCOUNT', { pixKeyType: 'CPF', pixKey: '52998224726' }, {
    field: 'accountInfo.pixKey',
    message: 'must be a valid CPF (11 digits) for pixKeyType CPF',
  }],
  ['BRL phone key', 'BRL_ACCOUNT', { pixKeyType: 'PHONE', pixKey: '+14155551234' }, {
    field: 'accountInfo.pixKey',
    message: 'must be a Brazilian phone number +55 followed by 10 or 11 digits for pixKeyType PHONE',
  }],
  ['BRL tax id check digits', 'BRL_ACCOUNT', { taxId: '11222333000180' }, {
    field: 'accountInfo.taxId',
    message: 'is not a valid CNPJ (check digits mismatch)',
  }],
  ['wallet address', 'SOLANA_WALLET', { address: 'nope' }, {
    field: 'accountInfo.address',
    message: 'must be a base58 Solana public key (32 bytes)',
  }],
])('check digits: %s', (_name, variant, info, expected) => {
  expect(errorsFor(variant, info)).toEqual([expected]);
});

test('cross-member rules: SWIFT needs an account number or IBAN, CNY transfers pay businesses, lightning one', () => {
  expect(errorsFor('SWIFT_ACCOUNT', { iban: undefined })).toEqual([{
    field: 'accountInfo',
    message: 'at least one of accountNumber, iban is required',
  }]);
  expect(errorsFor('CNY_ACCOUNT', { beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Li Wei' } })).toEqual([
    { field: 'accountInfo.beneficiary.beneficiaryType', message: 'must be BUSINESS for BANK_TRANSFER' },
  ]);
  expect(
    validateExternalAccountCreate(
      requestFor('CNY_ACCOUNT', {
        accountNumber: undefined,
        phoneNumber: '+8613812345678',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Li Wei' },
      }),
      'PLATFORM',
    ).accountInfo.paymentRails,
  ).toEqual(['MOBILE_MONEY']);
  expect(errorsFor('LIGHTNING', { invoice: 'lnbc1' })).toEqual([
    { field: 'accountInfo.invoice', message: 'must be a BOLT 11 invoice (lnbc...)' },
    { field: 'accountInfo', message: 'exactly one of invoice, bolt12, lightningAddress is required' },
  ]);
});

test('each type holds its own currencies; a SWIFT account any bank currency', () => {
  expect(errorsFor('GBP_ACCOUNT', {}, { currency: 'EUR' })).toEqual([{
    field: 'currency',
    message: 'must be one of GBP',
    constraint: { enum: ['GBP'] },
  }]);
  expect(errorsFor('SPARK_WALLET', {}, { currency: 'USDC' })).toEqual([{
    field: 'currency',
    message: 'must be one of BTC',
    constraint: { enum: ['BTC'] },
  }]);
  expect(validateExternalAccountCreate(requestFor('SWIFT_ACCOUNT', {}, { currency: 'NGN' }), 'PLATFORM').currency).toBe(
    'NGN',
  );
});

test('what the edge left out is required here too (fail closed), every problem at once', () => {
  expect(fieldErrorsOf(() => validateExternalAccountCreate({}, 'PLATFORM'))).toEqual([
    { field: 'accountInfo', message: 'is required' },
    { field: 'currency', message: 'is required' },
  ]);
  expect(errorsFor('GBP_ACCOUNT', { sortCode: undefined, beneficiary: undefined })).toEqual([
    { field: 'accountInfo.sortCode', message: 'is required' },
    { field: 'accountInfo.beneficiary', message: 'is required' },
  ]);
  expect(errorsFor('GBP_ACCOUNT', { accountType: 'XYZ_ACCOUNT' }).map((e) => e.field)).toEqual([
    'accountInfo.accountType',
  ]);
});

test('members of another type are not kept; the platform form ignores the customer members', () => {
  const draft = validateExternalAccountCreate(
    requestFor('GBP_ACCOUNT', { iban: 'GB29NWBK60161331926819' }, {
      customerId: 'Customer:x',
      defaultUmaDepositAccount: true,
    }),
    'PLATFORM',
  );
  expect(draft.accountInfo).not.toHaveProperty('iban');
  expect(draft).not.toHaveProperty('customerId');
  expect(draft.defaultUmaDepositAccount).toBe(false);
});
