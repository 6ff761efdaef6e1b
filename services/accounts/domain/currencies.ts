import { CURRENCY_CODES as TABLE_CODES, currencySpec } from '../../../lib/currencies';

/** The currencies the service knows: ISO 4217 fiat and crypto tickers, with their minor-unit exponent. */
export interface CurrencyInfo {
  code: string;
  name: string;
  symbol: string;
  decimals: number;
  kind: 'FIAT' | 'CRYPTO';
}

/** The currencies internal accounts may be held in (lib/currencies.ts). */
const LIST: CurrencyInfo[] = TABLE_CODES.flatMap((code) => {
  const { name, symbol, decimals, crypto, internalAccounts } = currencySpec(code)!;
  return internalAccounts ? [{ code, name, symbol, decimals, kind: crypto ? 'CRYPTO' as const : 'FIAT' as const }] : [];
});

export const CURRENCIES: ReadonlyMap<string, CurrencyInfo> = new Map(LIST.map((c) => [c.code, c]));
export const CURRENCY_CODES: readonly string[] = LIST.map((c) => c.code);

export function currencyInfo(code: string): CurrencyInfo {
  const info = CURRENCIES.get(code);
  if (!info) throw new Error(`unknown currency ${code}`);
  return info;
}
