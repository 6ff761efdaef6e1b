import { currencySpec } from '../../../../lib/currencies';

/** Smallest and largest amount a receiving account may be sent, in the currency's smallest unit. */
export interface ReceivableBounds {
  min: number;
  max: number;
}

/** Bounds for a catalogue currency (lib/currencies.ts); undefined when the currency cannot be received. */
export function receivableBounds(code: string): ReceivableBounds | undefined {
  const bounds = currencySpec(code)?.receivable;
  return bounds && { ...bounds };
}
