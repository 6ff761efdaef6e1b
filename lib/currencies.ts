/** What the platform knows of one currency: amounts are integers in units of 10^-decimals. */
export interface CurrencySpec {
  name: string;
  symbol: string;
  /** ISO 4217 minor units for fiat; a crypto currency's smallest unit (BTC in satoshis). */
  decimals: number;
  crypto?: true;
  /**
   * The rail a payout in the currency settles on by default (the first the reference lists for its
   * account type); corridors exist to the currencies that have one.
   */
  defaultRail?: string;
  /** Smallest and largest amount a receiving account may be sent, in the smallest unit. */
  receivable: { min: number; max: number };
  /** The sandbox rate: units of the currency per US dollar. */
  sandboxUnitsPerUsd: number;
  /** Customers' and platforms' internal accounts may be held in it. */
  internalAccounts?: true;
}

/**
 * Every currency, once: the currencies the reference's account types pay out in (fiat by ISO 4217
 * code) and the crypto currencies of its wallets (by the ticker the interface uses). The services'
 * catalogues, default rails, receivable bounds and sandbox rates all derive from this table.
 * Receivable bounds are roughly 1 to 50,000 US dollars' worth per payment, in round local amounts.
 * Sandbox rates are fixed round approximations, not market rates: they never change, so tests and
 * examples can rely on them (USD→MXN is 17.25).
 */
export const CURRENCY_TABLE = {
  USD: {
    name: 'United States Dollar',
    symbol: '$',
    decimals: 2,
    defaultRail: 'ACH',
    receivable: { min: 100, max: 5_000_000 },
    sandboxUnitsPerUsd: 1,
    internalAccounts: true,
  },
  MXN: {
    name: 'Mexican Peso',
    symbol: '$',
    decimals: 2,
    defaultRail: 'SPEI',
    receivable: { min: 2_000, max: 100_000_000 },
    sandboxUnitsPerUsd: 17.25,
    internalAccounts: true,
  },
  EUR: {
    name: 'Euro',
    symbol: '€',
    decimals: 2,
    defaultRail: 'SEPA_INSTANT',
    receivable: { min: 100, max: 5_000_000 },
    sandboxUnitsPerUsd: 0.92,
    internalAccounts: true,
  },
  BRL: {
    name: 'Brazilian Real',
    symbol: 'R$',
    decimals: 2,
    defaultRail: 'PIX',
    receivable: { min: 500, max: 25_000_000 },
    sandboxUnitsPerUsd: 5.45,
    internalAccounts: true,
  },
  INR: {
    name: 'Indian Rupee',
    symbol: '₹',
    decimals: 2,
    defaultRail: 'UPI',
    receivable: { min: 10_000, max: 400_000_000 },
    sandboxUnitsPerUsd: 83.2,
    internalAccounts: true,
  },
  GBP: {
    name: 'Pound Sterling',
    symbol: '£',
    decimals: 2,
    defaultRail: 'FASTER_PAYMENTS',
    receivable: { min: 100, max: 4_000_000 },
    sandboxUnitsPerUsd: 0.79,
  },
  CAD: {
    name: 'Canadian Dollar',
    symbol: '$',
    decimals: 2,
    defaultRail: 'BANK_TRANSFER',
    receivable: { min: 100, max: 6_500_000 },
    sandboxUnitsPerUsd: 1.36,
  },
  AED: {
    name: 'UAE Dirham',
    symbol: 'د.إ',
    decimals: 2,
    defaultRail: 'BANK_TRANSFER',
    receivable: { min: 400, max: 20_000_000 },
    sandboxUnitsPerUsd: 3.6725,
  },
  ARS: {
    name: 'Argentine Peso',
    symbol: '$',
    decimals: 2,
    receivable: { min: 100_000, max: 7_000_000_000 },
    sandboxUnitsPerUsd: 1450,
  },
  BDT: {
    name: 'Bangladeshi Taka',
    symbol: '৳',
    decimals: 2,
    defaultRail: 'BANK_TRANSFER',
    receivable: { min: 10_000, max: 600_000_000 },
    sandboxUnitsPerUsd: 122,
  },
  BWP: {
    name: 'Botswana Pula',
    symbol: 'P',
    decimals: 2,
    defaultRail: 'MOBILE_MONEY',
    receivable: { min: 1_000, max: 70_000_000 },
    sandboxUnitsPerUsd: 13.4,
  },
  CNY: {
    name: 'Yuan Renminbi',
    symbol: '¥',
    decimals: 2,
    defaultRail: 'BANK_TRANSFER',
    receivable: { min: 700, max: 40_000_000 },
    sandboxUnitsPerUsd: 7.1,
  },
  COP: {
    name: 'Colombian Peso',
    symbol: '$',
    decimals: 2,
    defaultRail: 'BANK_TRANSFER',
    receivable: { min: 400_000, max: 20_000_000_000 },
    sandboxUnitsPerUsd: 3900,
  },
  DKK: {
    name: 'Danish Krone',
    symbol: 'kr',
    decimals: 2,
    defaultRail: 'SEPA',
    receivable: { min: 700, max: 30_000_000 },
    sandboxUnitsPerUsd: 6.86,
  },
  EGP: {
    name: 'Egyptian Pound',
    symbol: 'E£',
    decimals: 2,
    defaultRail: 'BANK_TRANSFER',
    receivable: { min: 5_000, max: 200_000_000 },
    sandboxUnitsPerUsd: 47.5,
  },
  GHS: {
    name: 'Ghana Cedi',
    symbol: 'GH₵',
    decimals: 2,
    defaultRail: 'BANK_TRANSFER',
    receivable: { min: 1_000, max: 60_000_000 },
    sandboxUnitsPerUsd: 11,
  },
  GTQ: {
    name: 'Guatemalan Quetzal',
    symbol: 'Q',
    decimals: 2,
    defaultRail: 'BANK_TRANSFER',
    receivable: { min: 800, max: 40_000_000 },
    sandboxUnitsPerUsd: 7.7,
  },
  HKD: {
    name: 'Hong Kong Dollar',
    symbol: 'HK$',
    decimals: 2,
    defaultRail: 'BANK_TRANSFER',
    receivable: { min: 800, max: 40_000_000 },
    sandboxUnitsPerUsd: 7.78,
  },
  HTG: {
    name: 'Haitian Gourde',
    symbol: 'G',
    decimals: 2,
    defaultRail: 'MOBILE_MONEY',
    receivable: { min: 10_000, max: 700_000_000 },
    sandboxUnitsPerUsd: 131,
  },
  IDR: {
    name: 'Indonesian Rupiah',
    symbol: 'Rp',
    decimals: 2,
    defaultRail: 'BANK_TRANSFER',
    receivable: { min: 2_000_000, max: 80_000_000_000 },
    sandboxUnitsPerUsd: 16600,
  },
  JMD: {
    name: 'Jamaican Dollar',
    symbol: 'J$',
    decimals: 2,
    defaultRail: 'BANK_TRANSFER',
    receivable: { min: 20_000, max: 800_000_000 },
    sandboxUnitsPerUsd: 158,
  },
  KES: {
    name: 'Kenyan Shilling',
    symbol: 'KSh',
    decimals: 2,
    defaultRail: 'MOBILE_MONEY',
    receivable: { min: 10_000, max: 600_000_000 },
    sandboxUnitsPerUsd: 129,
  },
  MWK: {
    name: 'Malawi Kwacha',
    symbol: 'MK',
    decimals: 2,
    defaultRail: 'MOBILE_MONEY',
    receivable: { min: 200_000, max: 9_000_000_000 },
    sandboxUnitsPerUsd: 1735,
  },
  MYR: {
    name: 'Malaysian Ringgit',
    symbol: 'RM',
    decimals: 2,
    defaultRail: 'BANK_TRANSFER',
    receivable: { min: 400, max: 20_000_000 },
    sandboxUnitsPerUsd: 4.15,
  },
  NGN: {
    name: 'Nigerian Naira',
    symbol: '₦',
    decimals: 2,
    defaultRail: 'BANK_TRANSFER',
    receivable: { min: 100_000, max: 7_000_000_000 },
    sandboxUnitsPerUsd: 1460,
  },
  PHP: {
    name: 'Philippine Peso',
    symbol: '₱',
    decimals: 2,
    defaultRail: 'BANK_TRANSFER',
    receivable: { min: 6_000, max: 300_000_000 },
    sandboxUnitsPerUsd: 58.5,
  },
  PKR: {
    name: 'Pakistan Rupee',
    symbol: 'Rs',
    decimals: 2,
    defaultRail: 'BANK_TRANSFER',
    receivable: { min: 30_000, max: 1_000_000_000 },
    sandboxUnitsPerUsd: 281,
  },
  RWF: {
    name: 'Rwanda Franc',
    symbol: 'FRw',
    decimals: 0,
    defaultRail: 'MOBILE_MONEY',
    receivable: { min: 1_000, max: 70_000_000 },
    sandboxUnitsPerUsd: 1450,
  },
  SGD: {
    name: 'Singapore Dollar',
    symbol: 'S$',
    decimals: 2,
    defaultRail: 'PAYNOW',
    receivable: { min: 100, max: 6_000_000 },
    sandboxUnitsPerUsd: 1.3,
  },
  THB: {
    name: 'Thai Baht',
    symbol: '฿',
    decimals: 2,
    defaultRail: 'BANK_TRANSFER',
    receivable: { min: 3_000, max: 200_000_000 },
    sandboxUnitsPerUsd: 32.5,
  },
  TZS: {
    name: 'Tanzanian Shilling',
    symbol: 'TSh',
    decimals: 2,
    defaultRail: 'MOBILE_MONEY',
    receivable: { min: 200_000, max: 10_000_000_000 },
    sandboxUnitsPerUsd: 2450,
  },
  UGX: {
    name: 'Uganda Shilling',
    symbol: 'USh',
    decimals: 0,
    defaultRail: 'MOBILE_MONEY',
    receivable: { min: 4_000, max: 200_000_000 },
    sandboxUnitsPerUsd: 3500,
  },
  VND: {
    name: 'Vietnamese Dong',
    symbol: '₫',
    decimals: 0,
    defaultRail: 'BANK_TRANSFER',
    receivable: { min: 30_000, max: 1_000_000_000 },
    sandboxUnitsPerUsd: 26300,
  },
  XAF: {
    name: 'CFA Franc BEAC',
    symbol: 'FCFA',
    decimals: 0,
    defaultRail: 'MOBILE_MONEY',
    receivable: { min: 600, max: 30_000_000 },
    sandboxUnitsPerUsd: 603.48,
  },
  XOF: {
    name: 'CFA Franc BCEAO',
    symbol: 'CFA',
    decimals: 0,
    defaultRail: 'MOBILE_MONEY',
    receivable: { min: 600, max: 30_000_000 },
    sandboxUnitsPerUsd: 603.48,
  },
  ZAR: {
    name: 'South African Rand',
    symbol: 'R',
    decimals: 2,
    defaultRail: 'BANK_TRANSFER',
    receivable: { min: 2_000, max: 90_000_000 },
    sandboxUnitsPerUsd: 17.5,
  },
  ZMW: {
    name: 'Zambian Kwacha',
    symbol: 'ZK',
    decimals: 2,
    defaultRail: 'MOBILE_MONEY',
    receivable: { min: 2_000, max: 100_000_000 },
    sandboxUnitsPerUsd: 22.5,
  },
  USDC: {
    name: 'USD Coin',
    symbol: '',
    decimals: 6,
    crypto: true,
    receivable: { min: 1_000_000, max: 50_000_000_000 },
    sandboxUnitsPerUsd: 1,
    internalAccounts: true,
  },
  USDT: {
    name: 'Tether',
    symbol: '',
    decimals: 6,
    crypto: true,
    receivable: { min: 1_000_000, max: 50_000_000_000 },
    sandboxUnitsPerUsd: 1,
    internalAccounts: true,
  },
  BTC: {
    name: 'Bitcoin',
    symbol: '₿',
    decimals: 8,
    crypto: true,
    receivable: { min: 1_000, max: 50_000_000 },
    sandboxUnitsPerUsd: 0.00001,
    internalAccounts: true,
  },
} as const satisfies Record<string, CurrencySpec>;

export type CurrencyCode = keyof typeof CURRENCY_TABLE;

/** The codes in the table's order (the order listings use). */
export const CURRENCY_CODES = Object.keys(CURRENCY_TABLE) as readonly CurrencyCode[];

/** The table's entry, or undefined for a code that is no currency of the platform. */
export function currencySpec(code: string): CurrencySpec | undefined {
  return Object.hasOwn(CURRENCY_TABLE, code) ? CURRENCY_TABLE[code as CurrencyCode] : undefined;
}
