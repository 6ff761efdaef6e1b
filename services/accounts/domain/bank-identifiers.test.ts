import {
  checkAbaRoutingNumber,
  checkBic,
  checkBrazilianTaxId,
  checkClabe,
  checkIban,
  checkPixKey,
} from './bank-identifiers';
import { COUNTRY_CODES } from '../../../lib/country-codes';
import { isCalendarDate, isDateTime } from '../../../lib/value-formats';

test.each([
  ['021000021', true],
  ['011000015', true],
  ['121000358', true],
  ['123456789', false],
  ['021000022', false],
])('ABA routing number %s valid=%s', (value, valid) => {
  expect(checkAbaRoutingNumber(value) === undefined).toBe(valid);
});

test.each([
  ['032180000118359719', true],
  ['002010077777777771', true],
  ['032180000118359718', false],
  ['002010077777777772', false],
])('CLABE %s valid=%s', (value, valid) => {
  expect(checkClabe(value) === undefined).toBe(valid);
});

test.each([
  ['DE89370400440532013000', true],
  ['GB82WEST12345698765432', true],
  ['FR1420041010050500013M02606', true],
  ['NL91ABNA0417164300', true],
  ['DE89370400440532013001', false],
  ['XX89370400440532013000', false],
  // The IBAN registry's examples of the countries whose local accounts are IBANs (AED, DKK, EGP, PKR).
  ['AE070331234567890123456', true],
  ['DK5000400440116243', true],
  ['EG380019000500000000263180002', true],
  ['PK36SCBL0000001123456702', true],
  ['AE070331234567890123465', false],
  ['DK5000400440116234', false],
  ['EG380019000500000000263180020', false],
  ['PK36SCBL0000001123456720', false],
])('IBAN %s valid=%s', (value, valid) => {
  expect(checkIban(value) === undefined).toBe(valid);
});

test.each([
  ['DEUTDEFF', true],
  ['NWBKGB2L', true],
  ['HSBCHKHHHKH', true],
  ['DEUTXXFF', false],
  ['HSBCZZHHHKH', false],
])('BIC %s valid=%s', (value, valid) => {
  expect(checkBic(value) === undefined).toBe(valid);
});

test.each([
  ['52998224725', true],
  ['11144477735', true],
  ['11111111111', false],
  ['52998224724', false],
  ['11222333000181', true],
  ['11222333000182', false],
  ['00000000000000', false],
])('Brazilian tax id %s valid=%s', (value, valid) => {
  expect(checkBrazilianTaxId(value) === undefined).toBe(valid);
});

test.each(
  [
    ['CPF', '52998224725', true],
    ['CNPJ', '11222333000181', true],
    ['EMAIL', 'ana@example.com.br', true],
    ['PHONE', '+5511987654321', true],
    ['RANDOM', '123e4567-e89b-12d3-a456-426614174000', true],
    ['CPF', '529.982.247-25', false],
    ['PHONE', '11987654321', false],
  ] as const,
)('PIX %s key %s valid=%s', (type, value, valid) => {
  expect(checkPixKey(type, value) === undefined).toBe(valid);
});

test('formats', () => {
  expect(COUNTRY_CODES.size).toBe(249);
  expect([isCalendarDate('2024-02-29'), isCalendarDate('2023-02-29'), isCalendarDate('2024-2-1')]).toEqual([
    true,
    false,
    false,
  ]);
  expect([
    isDateTime('2025-10-03T12:00:00Z'),
    isDateTime('2025-10-03T12:00:00.123+02:00'),
    isDateTime('2025-10-03 12:00:00Z'),
    isDateTime('2025-10-03T12:00:00'),
  ])
    .toEqual([true, true, false, false]);
});
