import { mergePayerDataFields, requiredPayerDataFields, type PayerDataField } from './payer-data-requirements';

const m = (name: PayerDataField['name']) => ({ name, mandatory: true });
const o = (name: PayerDataField['name']) => ({ name, mandatory: false });

test.each<[string, string | undefined, PayerDataField[]]>([
  ['USD_ACCOUNT', 'US', [m('FULL_NAME'), m('POSTAL_ADDRESS')]],
  ['MXN_ACCOUNT', 'MX', [m('FULL_NAME'), m('BIRTH_DATE'), o('NATIONALITY')]],
  ['BRL_ACCOUNT', 'BR', [m('FULL_NAME'), m('BIRTH_DATE'), m('TAX_ID')]],
  ['INR_ACCOUNT', 'IN', [m('FULL_NAME'), m('POSTAL_ADDRESS'), m('PURPOSE_OF_PAYMENT')]],
  ['GBP_ACCOUNT', 'GB', [m('FULL_NAME'), m('POSTAL_ADDRESS')]],
  ['CAD_ACCOUNT', 'CA', [m('FULL_NAME'), o('BIRTH_DATE'), m('POSTAL_ADDRESS')]],
  ['EUR_ACCOUNT', 'DE', [m('FULL_NAME'), m('POSTAL_ADDRESS')]],
  ['KES_ACCOUNT', 'KE', [m('FULL_NAME')]],
  ['SWIFT_ACCOUNT', 'NG', [m('FULL_NAME'), m('POSTAL_ADDRESS'), m('PURPOSE_OF_PAYMENT')]],
  ['SWIFT_ACCOUNT', 'BR', [m('FULL_NAME'), m('BIRTH_DATE'), m('POSTAL_ADDRESS'), m('TAX_ID'), m('PURPOSE_OF_PAYMENT')]],
  ['SPARK_WALLET', undefined, [
    m('FULL_NAME'),
    m('FI_LEGAL_ENTITY_NAME'),
    o('FI_ADDRESS'),
    o('ULTIMATE_INSTITUTION_COUNTRY'),
  ]],
  ['SOLANA_WALLET', undefined, [
    m('FULL_NAME'),
    m('FI_LEGAL_ENTITY_NAME'),
    o('FI_ADDRESS'),
    o('ULTIMATE_INSTITUTION_COUNTRY'),
  ]],
  ['LIGHTNING', undefined, [o('FULL_NAME')]],
])('%s in %s requires %j', (accountType, country, expected) => {
  expect(requiredPayerDataFields({ accountType, country })).toEqual(expected);
});

test('merging keeps one entry per field, mandatory if any source says so, in interface order', () => {
  expect(mergePayerDataFields([o('EMAIL'), m('FULL_NAME')], [m('EMAIL'), o('FULL_NAME'), o('TAX_ID')])).toEqual([
    m('FULL_NAME'),
    m('EMAIL'),
    o('TAX_ID'),
  ]);
});
