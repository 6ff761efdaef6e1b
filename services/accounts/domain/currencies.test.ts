import { CURRENCY_CODES as TABLE_CODES, currencySpec } from '../../../lib/currencies';
import { CURRENCY_CODES, currencyInfo } from './currencies';

test('the accounts service knows the table\'s internal-account currencies, in its order', () => {
  expect(CURRENCY_CODES).toEqual(TABLE_CODES.filter((code) => currencySpec(code)!.internalAccounts));
  expect(CURRENCY_CODES).toEqual(expect.arrayContaining(['USD', 'EUR', 'MXN', 'BRL', 'INR', 'USDC', 'USDT', 'BTC']));
  expect(CURRENCY_CODES).toHaveLength(8);
});

test.each([
  ['USD', 'United States Dollar', '$', 2, 'FIAT'],
  ['INR', 'Indian Rupee', '₹', 2, 'FIAT'],
  ['USDC', 'USD Coin', '', 6, 'CRYPTO'],
  ['BTC', 'Bitcoin', '₿', 8, 'CRYPTO'],
])('%s is %s (%s), %d decimals, %s', (code, name, symbol, decimals, kind) => {
  expect(currencyInfo(code)).toEqual({ code, name, symbol, decimals, kind });
});

test('a currency internal accounts cannot hold is unknown here', () => {
  expect(() => currencyInfo('GBP')).toThrow('unknown currency GBP');
});
