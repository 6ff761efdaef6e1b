import { ACCOUNT_INFO_MEMBERS, EXTERNAL_ACCOUNT_TYPE_NAMES } from '../../lib/contract/external-account-types';
import { ExternalAccountInfo as InfoMessage } from '../../gen/accounts/v1/external_account_info';
import { ACCOUNT_INFO, externalAccountBody } from '../../services/accounts/test-fixtures/request-bodies';
import { fieldErrors } from '../../lib/contract/contract-errors';
import { ExternalAccountCreateRequest } from './account-contract';
import { createContractValidator } from './contract-ajv';

/* The shapes and formats of accountInfo, checked at the edge from the table of account types. */

const validate = createContractValidator();
type Variant = keyof typeof ACCOUNT_INFO;
const errorsFor = (variant: Variant, info: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
  const body = externalAccountBody(variant, extra);
  Object.assign(body.accountInfo, info);
  return fieldErrors(validate(ExternalAccountCreateRequest, JSON.parse(JSON.stringify(body))));
};

test.each(EXTERNAL_ACCOUNT_TYPE_NAMES)('the valid %s example passes the contract', (type) => {
  expect(errorsFor(type, {})).toEqual([]);
});

test('every member of the table is a member of the request message', () => {
  const all = Object.fromEntries(ACCOUNT_INFO_MEMBERS.map((m) => [m, 'x']));
  expect(InfoMessage.fromPartial(all as unknown as InfoMessage)).toMatchObject(all);
});

test.each<[string, Variant, Record<string, unknown>, object]>([
  ['USD routing number length', 'USD_ACCOUNT', { routingNumber: '02100002' }, {
    field: 'accountInfo.routingNumber',
    message: 'must be exactly 9 characters',
    constraint: { minLength: 9, maxLength: 9 },
  }],
  ['USD routing number letters', 'USD_ACCOUNT', { routingNumber: '02100002A' }, {
    field: 'accountInfo.routingNumber',
    message: 'must match ^[0-9]{9}$',
    constraint: { pattern: '^[0-9]{9}$' },
  }],
  ['USD account number missing', 'USD_ACCOUNT', { accountNumber: undefined }, {
    field: 'accountInfo.accountNumber',
    message: 'is required',
  }],
  ['USD bank account type', 'USD_ACCOUNT', { bankAccountType: 'BROKERAGE' }, {
    field: 'accountInfo.bankAccountType',
    message: 'must be one of CHECKING, SAVINGS',
    constraint: { enum: ['CHECKING', 'SAVINGS'] },
  }],
  ['USD beneficiary missing', 'USD_ACCOUNT', { beneficiary: undefined }, {
    field: 'accountInfo.beneficiary',
    message: 'is required',
  }],
  ['USD beneficiary name missing', 'USD_ACCOUNT', { beneficiary: { beneficiaryType: 'INDIVIDUAL' } }, {
    field: 'accountInfo.beneficiary.fullName',
    message: 'is required',
  }],
  ['USD business beneficiary legal name', 'USD_ACCOUNT', {
    beneficiary: { beneficiaryType: 'BUSINESS', fullName: 'X' },
  }, { field: 'accountInfo.beneficiary.legalName', message: 'is required' }],
  ['beneficiary type', 'USD_ACCOUNT', { beneficiary: { beneficiaryType: 'ROBOT' } }, {
    field: 'accountInfo.beneficiary.beneficiaryType',
    message: 'must be one of INDIVIDUAL, BUSINESS',
    constraint: { enum: ['INDIVIDUAL', 'BUSINESS'] },
  }],
  ['MXN CLABE length', 'MXN_ACCOUNT', { clabeNumber: '03218000011835971' }, {
    field: 'accountInfo.clabeNumber',
    message: 'must be exactly 18 characters',
    constraint: { minLength: 18, maxLength: 18 },
  }],
  ['EUR IBAN shape', 'EUR_ACCOUNT', { iban: 'de89370400440532013000' }, {
    field: 'accountInfo.iban',
    message: 'must match ^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{11,30}$',
    constraint: { pattern: '^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{11,30}$' },
  }],
  ['EUR BIC shape', 'EUR_ACCOUNT', { swiftCode: 'DEUT1EFF' }, {
    field: 'accountInfo.swiftCode',
    message: 'must match ^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$',
    constraint: { pattern: '^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$' },
  }],
  [
    'EUR individual needs residence',
    'EUR_ACCOUNT',
    { beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jo' } },
    { field: 'accountInfo.beneficiary.countryOfResidence', message: 'is required' },
  ],
  ['AED IBAN of another country', 'AED_ACCOUNT', { iban: 'DE8937040044053201300000' }, {
    field: 'accountInfo.iban',
    message: 'must be exactly 23 characters',
    constraint: { minLength: 23, maxLength: 23 },
  }],
  [
    'AED individual needs an address',
    'AED_ACCOUNT',
    { beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jo' } },
    { field: 'accountInfo.beneficiary.address', message: 'is required' },
  ],
  ['GBP sort code', 'GBP_ACCOUNT', { sortCode: '60-16-13' }, {
    field: 'accountInfo.sortCode',
    message: 'must be exactly 6 characters',
    constraint: { minLength: 6, maxLength: 6 },
  }],
  ['GBP account number', 'GBP_ACCOUNT', { accountNumber: '3192681A' }, {
    field: 'accountInfo.accountNumber',
    message: 'must match ^[0-9]{8}$',
    constraint: { pattern: '^[0-9]{8}$' },
  }],
  ['GBP rail of another type', 'GBP_ACCOUNT', { paymentRails: ['SEPA'] }, {
    field: 'accountInfo.paymentRails[0]',
    message: 'must be one of FASTER_PAYMENTS',
    constraint: { enum: ['FASTER_PAYMENTS'] },
  }],
  ['KES phone of another country', 'KES_ACCOUNT', { phoneNumber: '+255712345678' }, {
    field: 'accountInfo.phoneNumber',
    message: 'must match ^\\+254[0-9]{9}$',
    constraint: { pattern: '^\\+254[0-9]{9}$' },
  }],
  ['XOF region', 'XOF_ACCOUNT', { region: 'CM' }, {
    field: 'accountInfo.region',
    message: 'must be one of BJ, CI, SN, TG',
    constraint: { enum: ['BJ', 'CI', 'SN', 'TG'] },
  }],
  ['CAD institution number', 'CAD_ACCOUNT', { bankCode: '1' }, {
    field: 'accountInfo.bankCode',
    message: 'must be exactly 3 characters',
    constraint: { minLength: 3, maxLength: 3 },
  }],
  ['INR IFSC shape', 'INR_ACCOUNT', { ifsc: 'HDFC1001234' }, {
    field: 'accountInfo.ifsc',
    message: 'must match ^[A-Z]{4}0[A-Z0-9]{6}$',
    constraint: { pattern: '^[A-Z]{4}0[A-Z0-9]{6}$' },
  }],
  ['BRL pix key type', 'BRL_ACCOUNT', { pixKeyType: 'IBAN' }, {
    field: 'accountInfo.pixKeyType',
    message: 'must be one of CPF, CNPJ, EMAIL, PHONE, RANDOM',
    constraint: { enum: ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'RANDOM'] },
  }],
  ['wallet without address', 'BASE_WALLET', { address: undefined }, {
    field: 'accountInfo.address',
    message: 'is required',
  }],
  ['lightning address shape', 'LIGHTNING', { lightningAddress: 'alice' }, {
    field: 'accountInfo.lightningAddress',
    message: expect.stringMatching(/^must match/),
    constraint: { pattern: expect.any(String) },
  }],
])('%s', (_name, variant, info, expected) => {
  expect(errorsFor(variant, info)).toEqual([expected]);
});

test('an unknown account type lists every type; every invalid member is listed at once', () => {
  const [unknown] = errorsFor('GBP_ACCOUNT', { accountType: 'GBX_ACCOUNT' });
  expect(unknown).toMatchObject({
    field: 'accountInfo.accountType',
    constraint: { enum: EXTERNAL_ACCOUNT_TYPE_NAMES },
  });
  expect(
    errorsFor('GBP_ACCOUNT', {
      sortCode: '1',
      accountNumber: undefined,
      beneficiary: { beneficiaryType: 'INDIVIDUAL' },
    }).map((e) => e.field).sort(),
  )
    .toEqual(['accountInfo.accountNumber', 'accountInfo.beneficiary.fullName', 'accountInfo.sortCode']);
});
