import { CURRENCY_CODES as TABLE_CODES, currencySpec } from '../../../lib/currencies';
import { CURRENCY_CODES, currencyInfo } from './currencies';

test("the accounts service knows the table's internal-account currencies, in its order", () => {
  expect(CURRENCY_CODES).toEqual(TABLE_CODES.filter((code) => currencySpec(code)!.internalAccounts));
  expect(CURRENCY_CODES).toEqual(expect.arrayContaining(['USD', 'EUR', 'MXN', 'BRL', 'INR', 'USDC', 'USDT', 'BTC']));
  expect(CURRENCY_CODES).toHaveLength(8);
});

test.each([
  { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2, kind: 'FIAT' },
  { code: 'INR', name: 'Indian Rupee', symbol: '₹', decimals: 2, kind: 'FIAT' },
  { code: 'USDC', name: 'USD Coin', symbol: '', decimals: 6, kind: 'CRYPTO' },
  { code: 'BTC', name: 'Bitcoin', symbol: '₿', decimals: 8, kind: 'CRYPTO' },
])('$code is $name ($symbol), $decimals decimals, $kind', ({ code, name, symbol, decimals, kind }) => {
  expect(currencyInfo(code)).toEqual({ code, name, symbol, decimals, kind });
});

test('a currency internal accounts cannot hold is unknown here', () => {
  expect(() => currencyInfo('GBP')).toThrow('unknown currency GBP');
});
