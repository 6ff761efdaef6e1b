import { CURRENCY_CODES } from '../../shared/domain/currency-catalogue';
import { createSandboxRateSource } from './rate-source';

const rates = createSandboxRateSource();

test.each([
  ['USD', 'MXN', 17.25],
  ['USD', 'EUR', 0.92],
  ['USD', 'BTC', 0.00001],
  ['USD', 'USDC', 1],
  ['MXN', 'USD', 0.05797101449],
  ['EUR', 'MXN', 18.75],
  ['GBP', 'INR', 105.3164557],
  ['BTC', 'USD', 100000],
  ['CAD', 'CAD', 1],
])('%s→%s is %d', async (from, to, expected) => {
  await expect(rates.rate(from, to)).resolves.toBe(expected);
});

test('every pair of catalogue currencies has a rate > 0', async () => {
  for (const from of CURRENCY_CODES) {
    for (const to of CURRENCY_CODES) expect(await rates.rate(from, to)).toBeGreaterThan(0);
  }
});

test('a currency outside the table is an internal failure, not a guess', async () => {
  await expect(rates.rate('USD', 'XYZ')).rejects.toThrow('no sandbox rate for USD→XYZ');
});
