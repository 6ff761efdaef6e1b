import { AppError } from '../../../lib/errors';
import { NO_FEE, platformFeeRule, serviceFeeRule, type FeeRule } from './fees';
import { price } from './pricing';

const USD = 2;
const cross = serviceFeeRule(true);

function quote(side: 'SENDING' | 'RECEIVING', amount: number, rate: number, platform: FeeRule = NO_FEE, service: FeeRule = cross, decimals = [USD, USD]) {
  return price({ lockedSide: side, lockedAmount: amount, exchangeRate: rate, serviceFee: service, platformFee: platform, sendingDecimals: decimals[0], receivingDecimals: decimals[1] });
}

// [side, locked, rate, platform fee, totalSending, totalReceiving, service fee, platform fee]
test.each([
  ['SENDING', 10000, 0.92, NO_FEE, 10000, 9190, 10, 0],
  ['SENDING', 10000, 17.25, NO_FEE, 10000, 172327, 10, 0], // 9990 × 17.25 = 172327.5
  ['SENDING', 10000, 17.25, { fixedFee: 50, variableFeeBps: 30 }, 10000, 170947, 10, 80], // 9910 × 17.25 = 170947.5
  ['RECEIVING', 172500, 17.25, NO_FEE, 10010, 172500, 10, 0], // needs 10000 after a fee of 10
  ['RECEIVING', 9200, 0.92, { fixedFee: 50, variableFeeBps: 30 }, 10090, 9200, 10, 80], // 10090 − 90 = 10000
])('%s %s at %s → sends %s, receives %s', (side, locked, rate, platform, sending, receiving, serviceFee, platformFee) => {
  const p = quote(side as 'SENDING' | 'RECEIVING', locked, rate, platform);
  expect([p.totalSending, p.totalReceiving, p.fees.service.total, p.fees.platform.total]).toEqual([sending, receiving, serviceFee, platformFee]);
  expect(p.fees.total).toBe(serviceFee + platformFee);
  expect(p.converted).toBe(sending - serviceFee - platformFee);
});

test('with the receiving side locked, the sender pays the smallest total that covers it', () => {
  for (const [locked, rate] of [[172500, 17.25], [9201, 0.92], [1, 0.92], [999_999, 83.2]] as const) {
    const p = quote('RECEIVING', locked, rate, { fixedFee: 25, variableFeeBps: 45 });
    const received = (total: number) => {
      try { return quote('SENDING', total, rate, { fixedFee: 25, variableFeeBps: 45 }).totalReceiving; } catch { return 0; }
    };
    expect(received(p.totalSending - 1)).toBeLessThan(locked);
    expect(quote('SENDING', p.totalSending, rate, { fixedFee: 25, variableFeeBps: 45 }).totalReceiving).toBeGreaterThanOrEqual(locked);
  }
});

test('same-currency payments carry no service fee and convert 1:1', () => {
  const p = quote('SENDING', 12550, 1, NO_FEE, serviceFeeRule(false));
  expect([p.totalSending, p.totalReceiving, p.fees.total]).toEqual([12550, 12550, 0]);
});

test.each([
  ['fees take everything', 'SENDING', 50, 0.92, { fixedFee: 50, variableFeeBps: 0 }],
  ['nothing would arrive', 'SENDING', 1, 0.00001, NO_FEE],
  ['100% fees with the receiving side locked', 'RECEIVING', 100, 1, { fixedFee: 0, variableFeeBps: 9990 }],
])('INVALID_AMOUNT when %s', (_name, side, amount, rate, platform) => {
  expect(() => quote(side as 'SENDING', amount as number, rate as number, platform as FeeRule)).toThrow(expect.objectContaining({ code: 'INVALID_AMOUNT' }));
});

describe('platform fee rule', () => {
  const configs = [{ feeType: 'CROSS_CURRENCY_TRANSACTION' as const, sourceCurrency: 'USD', variableFeeBps: 25, fixedFee: { amount: 30, currency: 'USD' } }];
  test.each([
    ['configured fee on a USD cross-currency payment', 'USD', true, undefined, { fixedFee: 30, variableFeeBps: 25 }],
    ['no fee on a same-currency payment', 'USD', false, undefined, NO_FEE],
    ['no fee from a non-USD source', 'EUR', true, undefined, NO_FEE],
    ['the override replaces the configured fee', 'USD', true, { fixedFee: { amount: 5, currency: 'USD' }, variableFeeBps: 0 }, { fixedFee: 5, variableFeeBps: 0 }],
  ])('%s', (_name, currency, crossCurrency, override, expected) => {
    expect(platformFeeRule({ sendingCurrency: currency as string, crossCurrency: crossCurrency as boolean, configs, override: override as never })).toEqual(expected);
  });
  test('an override on a non-USD source is INVALID_INPUT', () => {
    const err = (() => { try { platformFeeRule({ sendingCurrency: 'EUR', crossCurrency: true, configs, override: { fixedFee: { amount: 5, currency: 'EUR' }, variableFeeBps: 0 } }); } catch (e) { return e as AppError; } })();
    expect(err?.code).toBe('INVALID_INPUT');
  });
});
