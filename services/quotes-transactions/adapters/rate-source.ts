/** The exchange-rate port: units of `to` per unit of `from` (major units), a decimal > 0. */
export interface RateSource {
  rate(from: string, to: string): Promise<number>;
}

/**
 * The sandbox rate table: units of each currency per US dollar. It never changes, so tests
 * and README examples can rely on it: USD→MXN is 17.25, MXN→USD 1/17.25, EUR→MXN 17.25/0.92.
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
  BDT: 110,
  BWP: 13.5,
  CNY: 7.1,
  COP: 3900,
  DKK: 6.85,
  EGP: 48,
  GHS: 15,
  GTQ: 7.75,
  HKD: 7.8,
  HTG: 132,
  IDR: 15800,
  JMD: 156,
  KES: 129,
  MWK: 1730,
  MYR: 4.7,
  NGN: 1550,
  PHP: 56,
  PKR: 278,
  RWF: 1300,
  SGD: 1.34,
  THB: 35,
  TZS: 2600,
  UGX: 3750,
  VND: 25000,
  XAF: 600,
  XOF: 600,
  ZAR: 18.5,
  ZMW: 26,
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
      if (perUsdFrom === undefined || perUsdTo === undefined) throw new Error(`no sandbox rate for ${from}→${to}`);
      if (from === to) return 1;
      return Number((perUsdTo / perUsdFrom).toPrecision(SIGNIFICANT_DIGITS));
    },
  };
}
