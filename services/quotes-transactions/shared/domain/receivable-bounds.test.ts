import { CURRENCY_CODES, findCurrency } from './currency-catalogue';
import { receivableBounds } from './receivable-bounds';

test.each(CURRENCY_CODES.map((code) => [code]))('%s has integer bounds with 0 < min < max', (code) => {
  const bounds = receivableBounds(code)!;
  expect(Number.isSafeInteger(bounds.min)).toBe(true);
  expect(Number.isSafeInteger(bounds.max)).toBe(true);
  expect(bounds.min).toBeGreaterThan(0);
  expect(bounds.max).toBeGreaterThan(bounds.min);
});

test.each([
  ['USD', 100, 5_000_000],
  ['MXN', 2_000, 100_000_000],
  ['USDC', 1_000_000, 50_000_000_000],
  ['BTC', 1_000, 50_000_000],
])('%s receives from %d to %d smallest units', (code, min, max) => {
  expect(receivableBounds(code)).toEqual({ min, max });
});

test('a currency outside the catalogue has no bounds', () => {
  expect(receivableBounds('XYZ')).toBeUndefined();
});

test.each([
  ['USD', 'United States Dollar', '$', 2],
  ['MXN', 'Mexican Peso', '$', 2],
  ['EUR', 'Euro', '€', 2],
  ['BRL', 'Brazilian Real', 'R$', 2],
  ['INR', 'Indian Rupee', '₹', 2],
  ['GBP', 'Pound Sterling', '£', 2],
  ['CAD', 'Canadian Dollar', '$', 2],
  ['USDC', 'USD Coin', '', 6],
  ['USDT', 'Tether', '', 6],
  ['BTC', 'Bitcoin', '₿', 8],
])('the catalogue describes %s', (code, name, symbol, decimals) => {
  expect(findCurrency(code)).toEqual({ code, name, symbol, decimals });
});

test('catalogue entries are copies', () => {
  findCurrency('USD')!.decimals = 9;
  expect(findCurrency('USD')!.decimals).toBe(2);
  expect(findCurrency('SAT')).toBeUndefined();
});
