/** Smallest and largest amount a receiving account may be sent, in the currency's smallest unit. */
export interface ReceivableBounds {
  min: number;
  max: number;
}

// Roughly 1 to 50,000 US dollars' worth per payment, in round local amounts.
const BOUNDS: Readonly<Record<string, ReceivableBounds>> = {
  USD: { min: 100, max: 5_000_000 },
  MXN: { min: 2_000, max: 100_000_000 },
  EUR: { min: 100, max: 5_000_000 },
  BRL: { min: 500, max: 25_000_000 },
  INR: { min: 10_000, max: 400_000_000 },
  GBP: { min: 100, max: 4_000_000 },
  CAD: { min: 100, max: 6_500_000 },
  AED: { min: 370, max: 18_000_000 },
  BDT: { min: 11_000, max: 550_000_000 },
  BWP: { min: 1_400, max: 68_000_000 },
  CNY: { min: 710, max: 36_000_000 },
  COP: { min: 390_000, max: 20_000_000_000 },
  DKK: { min: 680, max: 34_000_000 },
  EGP: { min: 4_800, max: 240_000_000 },
  GHS: { min: 1_500, max: 75_000_000 },
  GTQ: { min: 780, max: 39_000_000 },
  HKD: { min: 780, max: 39_000_000 },
  HTG: { min: 13_000, max: 660_000_000 },
  IDR: { min: 1_600_000, max: 79_000_000_000 },
  JMD: { min: 16_000, max: 780_000_000 },
  KES: { min: 13_000, max: 640_000_000 },
  MWK: { min: 170_000, max: 8_600_000_000 },
  MYR: { min: 470, max: 24_000_000 },
  NGN: { min: 160_000, max: 7_800_000_000 },
  PHP: { min: 5_600, max: 280_000_000 },
  PKR: { min: 28_000, max: 1_400_000_000 },
  RWF: { min: 1_300, max: 65_000_000 },
  SGD: { min: 130, max: 6_700_000 },
  THB: { min: 3_500, max: 180_000_000 },
  TZS: { min: 260_000, max: 13_000_000_000 },
  UGX: { min: 3_800, max: 190_000_000 },
  VND: { min: 25_000, max: 1_200_000_000 },
  XAF: { min: 600, max: 30_000_000 },
  XOF: { min: 600, max: 30_000_000 },
  ZAR: { min: 1_800, max: 92_000_000 },
  ZMW: { min: 2_600, max: 130_000_000 },
  USDC: { min: 1_000_000, max: 50_000_000_000 },
  USDT: { min: 1_000_000, max: 50_000_000_000 },
  BTC: { min: 1_000, max: 50_000_000 },
};

/** Bounds for a catalogue currency; undefined when the currency cannot be received. */
export function receivableBounds(code: string): ReceivableBounds | undefined {
  const bounds = BOUNDS[code];
  return bounds && { ...bounds };
}
