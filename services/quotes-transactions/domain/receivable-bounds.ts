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
  AED: { min: 400, max: 20_000_000 },
  ARS: { min: 100_000, max: 7_000_000_000 },
  BDT: { min: 10_000, max: 600_000_000 },
  BWP: { min: 1_000, max: 70_000_000 },
  CNY: { min: 700, max: 40_000_000 },
  COP: { min: 400_000, max: 20_000_000_000 },
  DKK: { min: 700, max: 30_000_000 },
  EGP: { min: 5_000, max: 200_000_000 },
  GHS: { min: 1_000, max: 60_000_000 },
  GTQ: { min: 800, max: 40_000_000 },
  HKD: { min: 800, max: 40_000_000 },
  HTG: { min: 10_000, max: 700_000_000 },
  IDR: { min: 2_000_000, max: 80_000_000_000 },
  JMD: { min: 20_000, max: 800_000_000 },
  KES: { min: 10_000, max: 600_000_000 },
  MWK: { min: 200_000, max: 9_000_000_000 },
  MYR: { min: 400, max: 20_000_000 },
  NGN: { min: 100_000, max: 7_000_000_000 },
  PHP: { min: 6_000, max: 300_000_000 },
  PKR: { min: 30_000, max: 1_000_000_000 },
  RWF: { min: 1_000, max: 70_000_000 },
  SGD: { min: 100, max: 6_000_000 },
  THB: { min: 3_000, max: 200_000_000 },
  TZS: { min: 200_000, max: 10_000_000_000 },
  UGX: { min: 4_000, max: 200_000_000 },
  VND: { min: 30_000, max: 1_000_000_000 },
  XAF: { min: 600, max: 30_000_000 },
  XOF: { min: 600, max: 30_000_000 },
  ZAR: { min: 2_000, max: 90_000_000 },
  ZMW: { min: 2_000, max: 100_000_000 },
  USDC: { min: 1_000_000, max: 50_000_000_000 },
  USDT: { min: 1_000_000, max: 50_000_000_000 },
  BTC: { min: 1_000, max: 50_000_000 },
};

/** Bounds for a catalogue currency; undefined when the currency cannot be received. */
export function receivableBounds(code: string): ReceivableBounds | undefined {
  const bounds = BOUNDS[code];
  return bounds && { ...bounds };
}
