import { AppError } from '../../../lib/errors';

/** Limits on what a platform sends in one currency (the withdrawal currency), in its minor units. */
export interface CurrencyLimit {
  currency: string;
  maxSingleTransaction?: number;
  dailyVolume?: number;
}

/**
 * Until a platform configures its own: at most $50,000.00 per USD payment and $100,000.00 of USD
 * payments executed per UTC day. Other currencies are unlimited unless configured.
 */
export const DEFAULT_LIMITS: readonly CurrencyLimit[] = [{ currency: 'USD', maxSingleTransaction: 5_000_000, dailyVolume: 10_000_000 }];

export function limitFor(limits: readonly CurrencyLimit[], currency: string): CurrencyLimit | undefined {
  return limits.find((l) => l.currency === currency);
}

export function assertWithinSingleTransactionLimit(limit: CurrencyLimit | undefined, amount: number): void {
  if (limit?.maxSingleTransaction !== undefined && amount > limit.maxSingleTransaction) {
    throw new AppError('TRANSACTION_SIZE_LIMIT_EXCEEDED', `The amount exceeds the single-transaction maximum for ${limit.currency}`, {
      currency: limit.currency, maxSingleTransaction: limit.maxSingleTransaction, amount,
    });
  }
}

export function dailyVolumeExceeded(limit: CurrencyLimit): AppError {
  return new AppError('DAILY_VOLUME_LIMIT_EXCEEDED', `The payment would exceed the daily volume limit for ${limit.currency}`, {
    currency: limit.currency, dailyVolume: limit.dailyVolume,
  });
}

/** The UTC day a payment's volume counts against. */
export function volumeDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** Ownership verification is required above the equivalent of $1,000.00 (the travel-rule threshold). */
export const VERIFICATION_THRESHOLD_USD_CENTS = 100_000;
