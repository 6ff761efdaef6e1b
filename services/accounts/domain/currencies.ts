/** The currencies the service knows: ISO 4217 fiat and crypto tickers, with their minor-unit exponent. */
export interface CurrencyInfo {
  code: string;
  name: string;
  symbol: string;
  decimals: number;
  kind: 'FIAT' | 'CRYPTO';
}

const LIST: CurrencyInfo[] = [
  { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2, kind: 'FIAT' },
  { code: 'EUR', name: 'Euro', symbol: '€', decimals: 2, kind: 'FIAT' },
  { code: 'MXN', name: 'Mexican Peso', symbol: '$', decimals: 2, kind: 'FIAT' },
  { code: 'BRL', name: 'Brazilian Real', symbol: 'R$', decimals: 2, kind: 'FIAT' },
  { code: 'INR', name: 'Indian Rupee', symbol: '₹', decimals: 2, kind: 'FIAT' },
  { code: 'USDC', name: 'USD Coin', symbol: '', decimals: 6, kind: 'CRYPTO' },
  { code: 'USDT', name: 'Tether', symbol: '', decimals: 6, kind: 'CRYPTO' },
  { code: 'BTC', name: 'Bitcoin', symbol: '₿', decimals: 8, kind: 'CRYPTO' },
];

export const CURRENCIES: ReadonlyMap<string, CurrencyInfo> = new Map(LIST.map((c) => [c.code, c]));
export const CURRENCY_CODES: readonly string[] = LIST.map((c) => c.code);

export function currencyInfo(code: string): CurrencyInfo {
  const info = CURRENCIES.get(code);
  if (!info) throw new Error(`unknown currency ${code}`);
  return info;
}
