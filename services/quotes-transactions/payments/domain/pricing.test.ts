import { AppError } from '../../../../lib/errors';
import { NO_FEE, platformFeeRule, serviceFeeRule, type FeeRule } from './fees';
import { price } from './pricing';

const USD = 2;
const cross = serviceFeeRule(true);

/** A quote locking `amount` on `side` at `rate`, with the platform's and the service's fees. */
interface QuoteTerms {
  side: 'SENDING' | 'RECEIVING';
  amount: number;
  rate: number;
  platform?: FeeRule;
  service?: FeeRule;
  decimals?: number[];
}

function quote({ side, amount, rate, platform = NO_FEE, service = cross, decimals = [USD, USD] }: QuoteTerms) {
  return price({
    lockedSide: side,
    lockedAmount: amount,
    exchangeRate: rate,
    serviceFee: service,
    platformFee: platform,
    sendingDecimals: decimals[0],
    receivingDecimals: decimals[1],
  });
}

test.each([
  {
    side: 'SENDING',
    locked: 10000,
    rate: 0.92,
    platform: NO_FEE,
    sending: 10000,
    receiving: 9190,
    serviceFee: 10,
    platformFee: 0,
  },
  // 9990 × 17.25 = 172327.5
  {
    side: 'SENDING',
    locked: 10000,
    rate: 17.25,
    platform: NO_FEE,
    sending: 10000,
    receiving: 172327,
    serviceFee: 10,
    platformFee: 0,
  },
  // 9910 × 17.25 = 170947.5
  {
    side: 'SENDING',
    locked: 10000,
    rate: 17.25,
    platform: { fixedFee: 50, variableFeeBps: 30 },
    sending: 10000,
    receiving: 170947,
    serviceFee: 10,
    platformFee: 80,
  },
  // needs 10000 after a fee of 10
  {
    side: 'RECEIVING',
    locked: 172500,
    rate: 17.25,
    platform: NO_FEE,
    sending: 10010,
    receiving: 172500,
    serviceFee: 10,
    platformFee: 0,
  },
  // 10090 − 90 = 10000
  {
    side: 'RECEIVING',
    locked: 9200,
    rate: 0.92,
    platform: { fixedFee: 50, variableFeeBps: 30 },
    sending: 10090,
    receiving: 9200,
    serviceFee: 10,
    platformFee: 80,
  },
])('$side $locked at $rate → sends $sending, receives $receiving', (row) => {
  const { side, locked, rate, platform, sending, receiving, serviceFee, platformFee } = row;
  const p = quote({ side: side as 'SENDING' | 'RECEIVING', amount: locked, rate, platform });
  expect([p.totalSending, p.totalReceiving, p.fees.service.total, p.fees.platform.total]).toEqual([
    sending,
    receiving,
    serviceFee,
    platformFee,
  ]);
  expect(p.fees.total).toBe(serviceFee + platformFee);
  expect(p.converted).toBe(sending - serviceFee - platformFee);
});

test('with the receiving side locked, the sender pays the smallest total that covers it', () => {
  for (const [locked, rate] of [[172500, 17.25], [9201, 0.92], [1, 0.92], [999_999, 83.2]] as const) {
    const platform = { fixedFee: 25, variableFeeBps: 45 };
    const p = quote({ side: 'RECEIVING', amount: locked, rate, platform });
    const received = (total: number) => {
      try {
        return quote({ side: 'SENDING', amount: total, rate, platform }).totalReceiving;
      } catch {
        return 0;
      }
    };
    expect(received(p.totalSending - 1)).toBeLessThan(locked);
    const sent = quote({ side: 'SENDING', amount: p.totalSending, rate, platform });
    expect(sent.totalReceiving).toBeGreaterThanOrEqual(locked);
  }
});

test('same-currency payments carry no service fee and convert 1:1', () => {
  const p = quote({ side: 'SENDING', amount: 12550, rate: 1, platform: NO_FEE, service: serviceFeeRule(false) });
  expect([p.totalSending, p.totalReceiving, p.fees.total]).toEqual([12550, 12550, 0]);
});

test.each([
  {
    name: 'fees take everything',
    side: 'SENDING',
    amount: 50,
    rate: 0.92,
    platform: { fixedFee: 50, variableFeeBps: 0 },
  },
  { name: 'nothing would arrive', side: 'SENDING', amount: 1, rate: 0.00001, platform: NO_FEE },
  {
    name: '100% fees with the receiving side locked',
    side: 'RECEIVING',
    amount: 100,
    rate: 1,
    platform: { fixedFee: 0, variableFeeBps: 9990 },
  },
])('INVALID_AMOUNT when $name', ({ side, amount, rate, platform }) => {
  expect(() =>
    quote({
      side: side as 'SENDING',
      amount: amount as number,
      rate: rate as number,
      platform: platform as FeeRule,
    })
  ).toThrow(expect.objectContaining({ code: 'INVALID_AMOUNT' }));
});

describe('platform fee rule', () => {
  const configs = [{
    feeType: 'CROSS_CURRENCY_TRANSACTION' as const,
    sourceCurrency: 'USD',
    variableFeeBps: 25,
    fixedFee: { amount: 30, currency: 'USD' },
  }];
  test.each([
    {
      name: 'configured fee on a USD cross-currency payment',
      currency: 'USD',
      crossCurrency: true,
      override: undefined,
      expected: { fixedFee: 30, variableFeeBps: 25 },
    },
    {
      name: 'no fee on a same-currency payment',
      currency: 'USD',
      crossCurrency: false,
      override: undefined,
      expected: NO_FEE,
    },
    {
      name: 'no fee from a non-USD source',
      currency: 'EUR',
      crossCurrency: true,
      override: undefined,
      expected: NO_FEE,
    },
    {
      name: 'the override replaces the configured fee',
      currency: 'USD',
      crossCurrency: true,
      override: { fixedFee: { amount: 5, currency: 'USD' }, variableFeeBps: 0 },
      expected: { fixedFee: 5, variableFeeBps: 0 },
    },
  ])('$name', ({ currency, crossCurrency, override, expected }) => {
    expect(
      platformFeeRule({
        sendingCurrency: currency as string,
        crossCurrency: crossCurrency as boolean,
        configs,
        override: override as never,
      }),
    ).toEqual(expected);
  });
  test('an override on a non-USD source is INVALID_INPUT', () => {
    const err = (() => {
      try {
        platformFeeRule({
          sendingCurrency: 'EUR',
          crossCurrency: true,
          configs,
          override: { fixedFee: { amount: 5, currency: 'EUR' }, variableFeeBps: 0 },
        });
      } catch (e) {
        return e as AppError;
      }
    })();
    expect(err?.code).toBe('INVALID_INPUT');
  });
});
