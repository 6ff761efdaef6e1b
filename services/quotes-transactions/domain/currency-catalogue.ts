/** A currency as the interface describes it: amounts are integers in units of 10^-decimals. */
export interface Currency {
  code: string;
  name: string;
  symbol: string;
  decimals: number;
}

/**
 * Every currency the reference's account types pay out in (ISO 4217 minor units), and the
 * crypto currencies of its wallets. Fiat by ISO 4217 code, crypto by the ticker the interface uses (BTC amounts are in satoshis). */
const CURRENCIES: readonly Currency[] = [
  { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 },
  { code: 'MXN', name: 'Mexican Peso', symbol: '$', decimals: 2 },
  { code: 'EUR', name: 'Euro', symbol: '€', decimals: 2 },
  { code: 'BRL', name: 'Brazilian Real', symbol: 'R$', decimals: 2 },
  { code: 'INR', name: 'Indian Rupee', symbol: '₹', decimals: 2 },
  { code: 'GBP', name: 'Pound Sterling', symbol: '£', decimals: 2 },
  { code: 'CAD', name: 'Canadian Dollar', symbol: '$', decimals: 2 },
  { code: 'AED', name: 'UAE Dirham', symbol: 'د.إ', decimals: 2 },
  { code: 'ARS', name: 'Argentine Peso', symbol: '$', decimals: 2 },
  { code: 'BDT', name: 'Bangladeshi Taka', symbol: '৳', decimals: 2 },
  { code: 'BWP', name: 'Botswana Pula', symbol: 'P', decimals: 2 },
  { code: 'CNY', name: 'Yuan Renminbi', symbol: '¥', decimals: 2 },
  { code: 'COP', name: 'Colombian Peso', symbol: '$', decimals: 2 },
  { code: 'DKK', name: 'Danish Krone', symbol: 'kr', decimals: 2 },
  { code: 'EGP', name: 'Egyptian Pound', symbol: 'E£', decimals: 2 },
  { code: 'GHS', name: 'Ghana Cedi', symbol: 'GH₵', decimals: 2 },
  { code: 'GTQ', name: 'Guatemalan Quetzal', symbol: 'Q', decimals: 2 },
  { code: 'HKD', name: 'Hong Kong Dollar', symbol: 'HK$', decimals: 2 },
  { code: 'HTG', name: 'Haitian Gourde', symbol: 'G', decimals: 2 },
  { code: 'IDR', name: 'Indonesian Rupiah', symbol: 'Rp', decimals: 2 },
  { code: 'JMD', name: 'Jamaican Dollar', symbol: 'J$', decimals: 2 },
  { code: 'KES', name: 'Kenyan Shilling', symbol: 'KSh', decimals: 2 },
  { code: 'MWK', name: 'Malawi Kwacha', symbol: 'MK', decimals: 2 },
  { code: 'MYR', name: 'Malaysian Ringgit', symbol: 'RM', decimals: 2 },
  { code: 'NGN', name: 'Nigerian Naira', symbol: '₦', decimals: 2 },
  { code: 'PHP', name: 'Philippine Peso', symbol: '₱', decimals: 2 },
  { code: 'PKR', name: 'Pakistan Rupee', symbol: 'Rs', decimals: 2 },
  { code: 'RWF', name: 'Rwanda Franc', symbol: 'FRw', decimals: 0 },
  { code: 'SGD', name: 'Singapore Dollar', symbol: 'S$', decimals: 2 },
  { code: 'THB', name: 'Thai Baht', symbol: '฿', decimals: 2 },
  { code: 'TZS', name: 'Tanzanian Shilling', symbol: 'TSh', decimals: 2 },
  { code: 'UGX', name: 'Uganda Shilling', symbol: 'USh', decimals: 0 },
  { code: 'VND', name: 'Vietnamese Dong', symbol: '₫', decimals: 0 },
  { code: 'XAF', name: 'CFA Franc BEAC', symbol: 'FCFA', decimals: 0 },
  { code: 'XOF', name: 'CFA Franc BCEAO', symbol: 'CFA', decimals: 0 },
  { code: 'ZAR', name: 'South African Rand', symbol: 'R', decimals: 2 },
  { code: 'ZMW', name: 'Zambian Kwacha', symbol: 'ZK', decimals: 2 },
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
