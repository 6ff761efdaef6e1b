import { AppError } from '../../../../lib/errors';
import { MAX_AMOUNT } from '../../../../lib/contract/amount-bounds';

/**
 * Every money computation of the service. Amounts are integers in minor units (10^-decimals of
 * their currency); products are taken in BigInt, so nothing rounds except the one step each rule
 * names. The rounding rule:
 *
 * - a fee in basis points rounds half up: fee = ⌊(amount × bps + 5 000) / 10 000⌋;
 * - converting an amount sent rounds down: the receiver never gets more than the rate pays;
 * - the amount to send for a locked received amount rounds up: the sender always covers it.
 *
 * Rounding therefore never creates money; the leftover fraction stays with the FX account.
 */

/** The largest amount the interface accepts (lockedCurrencyAmount maximum); below 2^53. */
export { MAX_AMOUNT };

/**
 * The most one sandbox simulation brings into an account (the reference's SandboxFundRequest
 * maximum): sandbox funding, a simulated incoming payment, a simulated card credit.
 */
export const MAX_SANDBOX_FUNDING = 100_000_000_000;

/** Units of the target currency per unit of the source currency (major units), as an exact fraction. */
export interface Rate {
  numerator: bigint;
  denominator: bigint;
}

export function isMinorAmount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 && value <= MAX_AMOUNT;
}

function toAmount(value: bigint, what: string): number {
  if (value < 0n || value > BigInt(MAX_AMOUNT)) {
    throw new AppError('INVALID_AMOUNT', `${what} is outside the supported range`);
  }
  return Number(value);
}

/** The exact fraction a decimal rate denotes: 17.25 → 1725/100, 1e-5 → 1/100000. */
export function rateFromDecimal(rate: number): Rate {
  if (!Number.isFinite(rate) || rate <= 0) throw new Error(`an exchange rate must be > 0, got ${rate}`);
  const [mantissa, exponentText] = String(rate).toLowerCase().split('e');
  const [whole, fraction = ''] = mantissa.split('.');
  const exponent = Number(exponentText ?? 0) - fraction.length;
  const digits = BigInt(whole + fraction);
  return exponent >= 0
    ? { numerator: digits * 10n ** BigInt(exponent), denominator: 1n }
    : { numerator: digits, denominator: 10n ** BigInt(-exponent) };
}

/** ⌊(amount × bps + 5 000) / 10 000⌋: basis points of an amount, half up. */
export function basisPointsOf(amount: number, bps: number): number {
  if (!Number.isInteger(bps) || bps < 0 || bps > 10_000) throw new Error(`basis points must be 0..10000, got ${bps}`);
  return toAmount((BigInt(amount) * BigInt(bps) + 5_000n) / 10_000n, 'The fee');
}

const scale = (decimals: number) => 10n ** BigInt(decimals);

/** What `amount` (minor units of the source) converts to, rounded down. */
export function convertDown(amount: number, rate: Rate, fromDecimals: number, toDecimals: number): number {
  const top = BigInt(amount) * rate.numerator * scale(toDecimals);
  const bottom = rate.denominator * scale(fromDecimals);
  return toAmount(top / bottom, 'The converted amount');
}

/** The smallest source amount whose conversion (rounded down) is at least `received`. */
export function sourceAmountFor(received: number, rate: Rate, fromDecimals: number, toDecimals: number): number {
  const top = BigInt(received) * rate.denominator * scale(fromDecimals);
  const bottom = rate.numerator * scale(toDecimals);
  return toAmount((top + bottom - 1n) / bottom, 'The amount to send');
}

/** Sum that refuses to leave the safe-integer range. */
export function addAmounts(...amounts: number[]): number {
  return toAmount(amounts.reduce((sum, a) => sum + BigInt(a), 0n), 'The total');
}

/** What `amount` (minor units of the source) converts to, rounded up: what a limit counts. */
export function convertUp(amount: number, rate: Rate, fromDecimals: number, toDecimals: number): number {
  const top = BigInt(amount) * rate.numerator * scale(toDecimals);
  const bottom = rate.denominator * scale(fromDecimals);
  return toAmount((top + bottom - 1n) / bottom, 'The converted amount');
}
