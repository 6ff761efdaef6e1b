import {
  applicableLimits,
  assertWithinCurrencyBounds,
  assertWithinSingleTransactionLimits,
  DEFAULT_LIMITS,
  releasesDailyVolume,
} from './limits';

const usdWide = { currency: 'USD', maxSingleTransaction: 1_000, dailyVolume: 5_000 };
const usdToMxn = { currency: 'USD', receivingCurrency: 'MXN', maxSingleTransaction: 500 };

test.each([
  {
    name: 'no configuration: the USD defaults',
    configured: [],
    sending: 'USD',
    receiving: 'MXN',
    expected: DEFAULT_LIMITS,
  },
  { name: 'no configuration, EUR: unlimited', configured: [], sending: 'EUR', receiving: 'MXN', expected: [] },
  {
    name: 'the corridor and the currency-wide limit',
    configured: [usdWide, usdToMxn],
    sending: 'USD',
    receiving: 'MXN',
    expected: [usdWide, usdToMxn],
  },
  {
    name: 'another corridor: the currency-wide limit only',
    configured: [usdWide, usdToMxn],
    sending: 'USD',
    receiving: 'EUR',
    expected: [usdWide],
  },
  {
    name: 'a configured corridor replaces the defaults',
    configured: [usdToMxn],
    sending: 'USD',
    receiving: 'EUR',
    expected: [],
  },
])('$name', ({ configured, sending, receiving, expected }) => {
  expect(applicableLimits(configured, sending, receiving)).toEqual(expected);
});

test.each([
  [500, undefined],
  [501, 'TRANSACTION_SIZE_LIMIT_EXCEEDED'],
])('%d against 1,000 (any) and 500 (USD→MXN): %s', (amount, code) => {
  const run = () => assertWithinSingleTransactionLimits([usdWide, usdToMxn], amount);
  if (code) {
    expect(run).toThrow(
      expect.objectContaining({
        code,
        details: expect.objectContaining({ receivingCurrency: 'MXN', maxSingleTransaction: 500 }),
      }),
    );
  } else expect(run).not.toThrow();
});

const bounds = [{ currency: 'USD', minAmount: 500, maxAmount: 200_000 }, {
  currency: 'MXN',
  minAmount: 0,
  maxAmount: 0,
}];

test.each([
  ['USD', 499, { currency: 'USD', minAmount: 500, maxAmount: 200_000, amount: 499 }],
  ['USD', 500, undefined],
  ['USD', 200_000, undefined],
  ['USD', 200_001, { currency: 'USD', minAmount: 500, maxAmount: 200_000, amount: 200_001 }],
  ['MXN', 1, { currency: 'MXN', minAmount: 0, maxAmount: 0, amount: 1 }],
  ['EUR', 10 ** 12, undefined],
])('sending %s %d against the platform bounds: %o', (currency, amount, details) => {
  const run = () => assertWithinCurrencyBounds(bounds, { currency, amount });
  if (details) expect(run).toThrow(expect.objectContaining({ code: 'AMOUNT_OUT_OF_RANGE', details }));
  else expect(run).not.toThrow();
});

test.each(
  [
    ['OUTGOING', 'PROCESSING', 'FAILED', true],
    ['OUTGOING', 'PENDING', 'FAILED', true],
    ['OUTGOING', 'FAILED', 'FAILED', false],
    ['OUTGOING', 'PROCESSING', 'COMPLETED', false],
    ['OUTGOING', 'PROCESSING', undefined, false],
    ['INCOMING', 'PENDING', 'FAILED', false],
  ] as const,
)('%s %s → %s releases the daily volume: %s', (type, status, to, releases) => {
  expect(releasesDailyVolume({ type, status }, { set: to ? { status: to } : {} })).toBe(releases);
});
