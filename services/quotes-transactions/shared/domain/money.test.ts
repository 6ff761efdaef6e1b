import { AppError } from '../../../../lib/errors';
import { addAmounts, basisPointsOf, convertDown, MAX_AMOUNT, rateFromDecimal, sourceAmountFor } from './money';

test.each([
  [17.25, 1725n, 100n],
  [0.92, 92n, 100n],
  [1, 1n, 1n],
  [100000, 100000n, 1n],
  [0.00001, 1n, 100000n],
  [0.05797101449, 5797101449n, 100000000000n],
  [1e21, 1000000000000000000000n, 1n],
])('rate %d is exactly %d/%d', (rate, numerator, denominator) => {
  expect(rateFromDecimal(rate)).toEqual({ numerator, denominator });
});

test.each([0, -1, NaN, Infinity])('rate %d is refused', (rate) => {
  expect(() => rateFromDecimal(rate)).toThrow();
});

// fee = ⌊(amount × bps + 5000) / 10000⌋ — half up.
test.each([
  [10000, 10, 10],
  [10000, 30, 30],
  [12345, 30, 37], // 37.035
  [150, 100, 2], // 1.5 → 2 (half up)
  [149, 100, 1], // 1.49
  [50, 100, 1], // 0.5 → 1
  [49, 100, 0],
  [1, 10000, 1],
  [0, 500, 0],
  [MAX_AMOUNT, 10000, MAX_AMOUNT],
  [MAX_AMOUNT, 1, 900_000_000_000], // no precision lost beyond 2^53
])('%d at %d bps is %d', (amount, bps, fee) => {
  expect(basisPointsOf(amount, bps)).toBe(fee);
});

test.each([-1, 10001, 1.5])('%d bps is refused', (bps) => {
  expect(() => basisPointsOf(100, bps)).toThrow();
});

// Converting rounds down; decimals scale.
test.each([
  { amount: 10000, rate: 17.25, from: 2, to: 2, expected: 172500 },
  { amount: 9990, rate: 0.92, from: 2, to: 2, expected: 9190 }, // 9190.8
  { amount: 1, rate: 0.92, from: 2, to: 2, expected: 0 },
  { amount: 10000, rate: 1, from: 2, to: 6, expected: 100_000_000 }, // 100.00 USD → 100.000000 USDC
  { amount: 100_000_000, rate: 1, from: 6, to: 2, expected: 10000 },
  { amount: 10000, rate: 0.00001, from: 2, to: 8, expected: 100_000 }, // $100 → 0.001 BTC = 100,000 sats
  { amount: 172500, rate: 0.05797101449, from: 2, to: 2, expected: 9999 }, // 9999.999999 rounds down
])('$amount at $rate ($from→$to decimals) converts down to $expected', ({ amount, rate, from, to, expected }) => {
  expect(convertDown(amount, rateFromDecimal(rate), from, to)).toBe(expected);
});

// The amount to send for a locked received amount rounds up, and converts back to at least it.
test.each([
  { received: 172500, rate: 17.25, from: 2, to: 2, expected: 10000 },
  { received: 172501, rate: 17.25, from: 2, to: 2, expected: 10001 },
  { received: 9200, rate: 0.92, from: 2, to: 2, expected: 10000 },
  { received: 9201, rate: 0.92, from: 2, to: 2, expected: 10002 }, // 10001.08… → 10002
  { received: 100_000, rate: 0.00001, from: 2, to: 8, expected: 10000 },
])('receiving $received at $rate needs $expected sent', ({ received, rate, from, to, expected }) => {
  const r = rateFromDecimal(rate);
  const sent = sourceAmountFor(received, r, from, to);
  expect(sent).toBe(expected);
  expect(convertDown(sent, r, from, to)).toBeGreaterThanOrEqual(received);
  expect(convertDown(sent - 1, r, from, to)).toBeLessThan(received);
});

test('results beyond the supported range are INVALID_AMOUNT, never rounded', () => {
  const err = (() => {
    try {
      convertDown(MAX_AMOUNT, rateFromDecimal(17.25), 2, 2);
    } catch (e) {
      return e;
    }
  })();
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe('INVALID_AMOUNT');
  expect(() => addAmounts(MAX_AMOUNT, 1)).toThrow(AppError);
  expect(addAmounts(1, 2, 3)).toBe(6);
});
