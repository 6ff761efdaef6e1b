import { AppError } from '../../../../lib/errors';
import type { Payment, PaymentChange } from './payment';

/**
 * A limit on sending in `currency` (the withdrawal currency), in its minor units: towards any
 * currency, or only towards `receivingCurrency` (a corridor).
 */
export interface CurrencyLimit {
  currency: string;
  receivingCurrency?: string;
  maxSingleTransaction?: number;
  dailyVolume?: number;
}

/**
 * Until a platform configures limits for a sending currency: at most $50,000.00 per USD payment
 * and $100,000.00 of USD payments executed per UTC day. Other currencies are unlimited.
 */
export const DEFAULT_LIMITS: readonly CurrencyLimit[] = [{
  currency: 'USD',
  maxSingleTransaction: 5_000_000,
  dailyVolume: 10_000_000,
}];

/**
 * The limits a payment from `sending` to `receiving` must respect: the corridor's and the sending
 * currency's. A platform that configured none for the sending currency gets the defaults.
 */
export function applicableLimits(
  configured: readonly CurrencyLimit[],
  sending: string,
  receiving: string,
): CurrencyLimit[] {
  const own = configured.filter((l) => l.currency === sending);
  const limits = own.length ? own : DEFAULT_LIMITS.filter((l) => l.currency === sending);
  return limits.filter((l) => l.receivingCurrency === undefined || l.receivingCurrency === receiving);
}

export function assertWithinSingleTransactionLimits(limits: readonly CurrencyLimit[], amount: number): void {
  const exceeded = limits.find((l) => l.maxSingleTransaction !== undefined && amount > l.maxSingleTransaction);
  if (exceeded) {
    const corridor = exceeded.receivingCurrency
      ? `${exceeded.currency}→${exceeded.receivingCurrency}`
      : exceeded.currency;
    throw new AppError(
      'TRANSACTION_SIZE_LIMIT_EXCEEDED',
      `The amount exceeds the single-transaction maximum for ${corridor}`,
      {
        currency: exceeded.currency,
        ...(exceeded.receivingCurrency ? { receivingCurrency: exceeded.receivingCurrency } : {}),
        maxSingleTransaction: exceeded.maxSingleTransaction,
        amount,
      },
    );
  }
}

export function dailyVolumeExceeded(limit: CurrencyLimit): AppError {
  return new AppError(
    'DAILY_VOLUME_LIMIT_EXCEEDED',
    `The payment would exceed the daily volume limit for ${
      limit.receivingCurrency ? `${limit.currency}→${limit.receivingCurrency}` : limit.currency
    }`,
    {
      currency: limit.currency,
      ...(limit.receivingCurrency ? { receivingCurrency: limit.receivingCurrency } : {}),
      dailyVolume: limit.dailyVolume,
    },
  );
}

/**
 * Executing an outgoing payment reserves its amount against the daily volume; the change that
 * records its failure gives the amount back (a refunded payment failed first, so this covers it).
 */
export function releasesDailyVolume(p: Pick<Payment, 'type' | 'status'>, change: Pick<PaymentChange, 'set'>): boolean {
  return p.type === 'OUTGOING' && p.status !== 'FAILED' && change.set.status === 'FAILED';
}

/** A platform's bounds on what may be sent in `currency` (PlatformCurrencyConfig), in its minor units. */
export interface CurrencyBounds {
  currency: string;
  minAmount: number;
  maxAmount: number;
}

/** The amount sent must lie within the sending currency's configured bounds, when it has some. */
export function assertWithinCurrencyBounds(
  bounds: readonly CurrencyBounds[],
  sent: { currency: string; amount: number },
): void {
  const own = bounds.find((b) => b.currency === sent.currency);
  if (!own || (sent.amount >= own.minAmount && sent.amount <= own.maxAmount)) return;
  throw new AppError(
    'AMOUNT_OUT_OF_RANGE',
    `The sending amount must be between ${own.minAmount} and ${own.maxAmount} ${own.currency} minor units`,
    {
      currency: own.currency,
      minAmount: own.minAmount,
      maxAmount: own.maxAmount,
      amount: sent.amount,
    },
  );
}

/** The UTC day a payment's volume counts against. */
export function volumeDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** Ownership verification is required above the equivalent of $1,000.00 (the travel-rule threshold). */
export const VERIFICATION_THRESHOLD_USD_CENTS = 100_000;
