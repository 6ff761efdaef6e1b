import { CURRENCY_CODES as TABLE_CODES, currencySpec } from '../../../../lib/currencies';
import { SANDBOX_UNITS_PER_USD } from '../../rates/adapters/rate-source';
import { CURRENCY_CODES, findCurrency } from './currency-catalogue';
import { receivableBounds } from './receivable-bounds';

test('the catalogue, bounds and sandbox rates list exactly the currency table, in its order', () => {
  expect(CURRENCY_CODES).toEqual(TABLE_CODES);
  expect(Object.keys(SANDBOX_UNITS_PER_USD)).toEqual(TABLE_CODES);
});

test.each(TABLE_CODES.map((code) => [code]))('%s is described as the table has it', (code) => {
  const { name, symbol, decimals, receivable, sandboxUnitsPerUsd } = currencySpec(code)!;
  expect(findCurrency(code)).toEqual({ code, name, symbol, decimals });
  expect(receivableBounds(code)).toEqual(receivable);
  expect(SANDBOX_UNITS_PER_USD[code]).toBe(sandboxUnitsPerUsd);
});
