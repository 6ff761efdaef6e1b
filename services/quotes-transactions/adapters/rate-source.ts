import { AppError } from '../../../lib/errors';

/**
 * The exchange-rate port: units of `to` per unit of `from` (major units), a decimal > 0.
 * A currency the source has no rate for is refused with INVALID_CURRENCY; a source that cannot
 * answer now (unreachable, stale) with UNAVAILABLE.
 */
export interface RateSource {
  rate(from: string, to: string): Promise<number>;
}

/**
 * The sandbox rate table: units of each currency per US dollar, for every currency the
 * reference's account types and wallets pay out in. Fixed round approximations, not market
 * rates: it never changes, so tests and examples can rely on it: USD→MXN is 17.25, MXN→USD
 * 1/17.25, EUR→MXN 17.25/0.92. RATE_SOURCE=ecb uses the ECB's published rates instead.
 */
export const SANDBOX_UNITS_PER_USD: Readonly<Record<string, number>> = {
  USD: 1,
  MXN: 17.25,
  EUR: 0.92,
  BRL: 5.45,
  INR: 83.2,
  GBP: 0.79,
  CAD: 1.36,
  AED: 3.6725,
  ARS: 1450,
  BDT: 122,
  BWP: 13.4,
  CNY: 7.1,
  COP: 3900,
  DKK: 6.86,
  EGP: 47.5,
  GHS: 11,
  GTQ: 7.7,
  HKD: 7.78,
  HTG: 131,
  IDR: 16600,
  JMD: 158,
  KES: 129,
  MWK: 1735,
  MYR: 4.15,
  NGN: 1460,
  PHP: 58.5,
  PKR: 281,
  RWF: 1450,
  SGD: 1.3,
  THB: 32.5,
  TZS: 2450,
  UGX: 3500,
  VND: 26300,
  XAF: 603.48,
  XOF: 603.48,
  ZAR: 17.5,
  ZMW: 22.5,
  USDC: 1,
  USDT: 1,
  BTC: 0.00001,
};

const SIGNIFICANT_DIGITS = 10;

/** The embedded default: a cross rate through USD, rounded to 10 significant digits. */
export function createSandboxRateSource(table: Readonly<Record<string, number>> = SANDBOX_UNITS_PER_USD): RateSource {
  return {
    async rate(from, to) {
      const perUsdFrom = table[from];
      const perUsdTo = table[to];
      if (perUsdFrom === undefined || perUsdTo === undefined) throw new AppError('INVALID_CURRENCY', `no sandbox rate for ${from}→${to}`);
      if (from === to) return 1;
      return Number((perUsdTo / perUsdFrom).toPrecision(SIGNIFICANT_DIGITS));
    },
  };
}
