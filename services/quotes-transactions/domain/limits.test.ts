import { applicableLimits, assertWithinSingleTransactionLimits, DEFAULT_LIMITS } from './limits';

const usdWide = { currency: 'USD', maxSingleTransaction: 1_000, dailyVolume: 5_000 };
const usdToMxn = { currency: 'USD', receivingCurrency: 'MXN', maxSingleTransaction: 500 };

test.each([
  ['no configuration: the USD defaults', [], 'USD', 'MXN', DEFAULT_LIMITS],
  ['no configuration, EUR: unlimited', [], 'EUR', 'MXN', []],
  ['the corridor and the currency-wide limit', [usdWide, usdToMxn], 'USD', 'MXN', [usdWide, usdToMxn]],
  ['another corridor: the currency-wide limit only', [usdWide, usdToMxn], 'USD', 'EUR', [usdWide]],
  ['a configured corridor replaces the defaults', [usdToMxn], 'USD', 'EUR', []],
])('%s', (_name, configured, sending, receiving, expected) => {
  expect(applicableLimits(configured, sending, receiving)).toEqual(expected);
});

test.each([
  [500, undefined],
  [501, 'TRANSACTION_SIZE_LIMIT_EXCEEDED'],
])('%d against 1,000 (any) and 500 (USD→MXN): %s', (amount, code) => {
  const run = () => assertWithinSingleTransactionLimits([usdWide, usdToMxn], amount);
  if (code) expect(run).toThrow(expect.objectContaining({ code, details: expect.objectContaining({ receivingCurrency: 'MXN', maxSingleTransaction: 500 }) }));
  else expect(run).not.toThrow();
});
