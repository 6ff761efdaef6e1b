import { describeDestination } from './receiving-destination';

const ID = 'ExternalAccount:e85dcbd6-dced-4ec4-b756-3c3a9ea3d965';

test.each<[string, Record<string, unknown>, string | undefined]>([
  ['USD account', { accountType: 'USD_ACCOUNT', accountNumber: '1234567890' }, 'US'],
  ['MXN account', { accountType: 'MXN_ACCOUNT', clabeNumber: '123456789012345678' }, 'MX'],
  ['EUR account: the IBAN country', { accountType: 'EUR_ACCOUNT', iban: 'FR1420041010050500013M02606' }, 'FR'],
  ['SWIFT account: its country', { accountType: 'SWIFT_ACCOUNT', country: 'NG', swiftCode: 'DEUTDEFF' }, 'NG'],
  ['SLV account', { accountType: 'SLV_ACCOUNT' }, 'SV'],
  [
    'XOF account: the beneficiary address',
    { accountType: 'XOF_ACCOUNT', beneficiary: { address: { country: 'SN' } } },
    'SN',
  ],
  ['XAF account without address', { accountType: 'XAF_ACCOUNT' }, undefined],
  [
    'wallet',
    { accountType: 'SPARK_WALLET', address: 'spark1xyz', beneficiary: { countryOfResidence: 'US' } },
    undefined,
  ],
])('%s is in %s', (_name, accountInfo, country) => {
  expect(describeDestination({ id: ID, currency: 'USD', accountInfo }).country).toBe(country);
});

test('the beneficiary name is the individual full name or the business legal name', () => {
  const individual = {
    accountType: 'USD_ACCOUNT',
    beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: '  Ana Ruiz ' },
  };
  const business = { accountType: 'USD_ACCOUNT', beneficiary: { beneficiaryType: 'BUSINESS', legalName: 'Acme SA' } };
  expect(describeDestination({ id: ID, currency: 'USD', accountInfo: individual })).toEqual({
    accountId: ID,
    accountType: 'USD_ACCOUNT',
    country: 'US',
    currency: 'USD',
    beneficiaryName: 'Ana Ruiz',
  });
  expect(describeDestination({ id: ID, currency: 'USD', accountInfo: business }).beneficiaryName).toBe('Acme SA');
  expect(describeDestination({ id: ID, currency: 'BTC', accountInfo: { accountType: 'LIGHTNING' } }).beneficiaryName)
    .toBeUndefined();
});
