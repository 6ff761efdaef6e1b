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
  USDC: { min: 1_000_000, max: 50_000_000_000 },
  USDT: { min: 1_000_000, max: 50_000_000_000 },
  BTC: { min: 1_000, max: 50_000_000 },
};

/** Bounds for a catalogue currency; undefined when the currency cannot be received. */
export function receivableBounds(code: string): ReceivableBounds | undefined {
  const bounds = BOUNDS[code];
  return bounds && { ...bounds };
}
