import { CURRENCY_CODES as CODES, CURRENCY_TABLE } from '../../../../lib/currencies';

/** A currency as the interface describes it: amounts are integers in units of 10^-decimals. */
export interface Currency {
  code: string;
  name: string;
  symbol: string;
  decimals: number;
}

/** The platform's currencies (lib/currencies.ts), as the interface describes them. */
const CURRENCIES: readonly Currency[] = CODES.map((code) => {
  const { name, symbol, decimals } = CURRENCY_TABLE[code];
  return { code, name, symbol, decimals };
});

const BY_CODE = new Map(CURRENCIES.map((c) => [c.code, c]));

export const CURRENCY_CODES: readonly string[] = CURRENCIES.map((c) => c.code);

/** The catalogue entry, or undefined for a code the platform does not pay out in. */
export function findCurrency(code: string): Currency | undefined {
  const found = BY_CODE.get(code);
  return found && { ...found };
}
