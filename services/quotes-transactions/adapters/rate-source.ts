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
