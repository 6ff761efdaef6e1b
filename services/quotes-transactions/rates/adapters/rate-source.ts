import { CURRENCY_CODES, CURRENCY_TABLE } from '../../../../lib/currencies';
import { AppError } from '../../../../lib/errors';

/**
 * The exchange-rate port: units of `to` per unit of `from` (major units), a decimal > 0.
 * A currency the source has no rate for is refused with INVALID_CURRENCY; a source that cannot
 * answer now (unreachable, stale) with UNAVAILABLE.
 */
export interface RateSource {
  rate(from: string, to: string): Promise<number>;
}

/**
 * The sandbox rate table (lib/currencies.ts): units of each currency per US dollar, fixed round
 * approximations that never change, so tests and examples can rely on them: USD→MXN is 17.25,
 * MXN→USD 1/17.25, EUR→MXN 17.25/0.92. RATE_SOURCE=ecb uses the ECB's published rates instead.
 */
export const SANDBOX_UNITS_PER_USD: Readonly<Record<string, number>> = Object.fromEntries(
  CURRENCY_CODES.map((code) => [code, CURRENCY_TABLE[code].sandboxUnitsPerUsd]),
);

const SIGNIFICANT_DIGITS = 10;

/** The embedded default: a cross rate through USD, rounded to 10 significant digits. */
export function createSandboxRateSource(table: Readonly<Record<string, number>> = SANDBOX_UNITS_PER_USD): RateSource {
  return {
    async rate(from, to) {
      const perUsdFrom = table[from];
      const perUsdTo = table[to];
      if (perUsdFrom === undefined || perUsdTo === undefined) {
        throw new AppError('INVALID_CURRENCY', `no sandbox rate for ${from}→${to}`);
      }
      if (from === to) return 1;
      return Number((perUsdTo / perUsdFrom).toPrecision(SIGNIFICANT_DIGITS));
    },
  };
}
