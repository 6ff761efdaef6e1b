/** A currency as the interface describes it: amounts are integers in units of 10^-decimals. */
export interface Currency {
  code: string;
  name: string;
  symbol: string;
  decimals: number;
}

/** Fiat by ISO 4217 code, crypto by the ticker the interface uses (BTC amounts are in satoshis). */
const CURRENCIES: readonly Currency[] = [
  { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 },
  { code: 'MXN', name: 'Mexican Peso', symbol: '$', decimals: 2 },
  { code: 'EUR', name: 'Euro', symbol: '€', decimals: 2 },
  { code: 'BRL', name: 'Brazilian Real', symbol: 'R$', decimals: 2 },
  { code: 'INR', name: 'Indian Rupee', symbol: '₹', decimals: 2 },
  { code: 'GBP', name: 'Pound Sterling', symbol: '£', decimals: 2 },
  { code: 'CAD', name: 'Canadian Dollar', symbol: '$', decimals: 2 },
  { code: 'USDC', name: 'USD Coin', symbol: '', decimals: 6 },
  { code: 'USDT', name: 'Tether', symbol: '', decimals: 6 },
  { code: 'BTC', name: 'Bitcoin', symbol: '₿', decimals: 8 },
];

const BY_CODE = new Map(CURRENCIES.map((c) => [c.code, c]));

export const CURRENCY_CODES: readonly string[] = CURRENCIES.map((c) => c.code);

/** The catalogue entry, or undefined for a code the platform does not pay out in. */
export function findCurrency(code: string): Currency | undefined {
  const found = BY_CODE.get(code);
  return found && { ...found };
}
