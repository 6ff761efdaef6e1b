import { AppError } from '../../../../lib/errors';
import { breakdown, type FeeBreakdown, type FeeRule } from './fees';
import { addAmounts, convertDown, rateFromDecimal, sourceAmountFor } from '../../shared/domain/money';

export type LockedSide = 'SENDING' | 'RECEIVING';

export interface PricingInput {
  lockedSide: LockedSide;
  /** Minor units of the sending currency (SENDING) or of the receiving currency (RECEIVING). */
  lockedAmount: number;
  sendingDecimals: number;
  receivingDecimals: number;
  /** Units of the receiving currency per unit of the sending currency. */
  exchangeRate: number;
  serviceFee: FeeRule;
  platformFee: FeeRule;
}

export interface Price {
  /** What leaves the sender, fees included (the quote's totalSendingAmount). */
  totalSending: number;
  /** What the receiver gets (the quote's totalReceivingAmount). */
  totalReceiving: number;
  /** totalSending minus fees: the part that is converted. */
  converted: number;
  fees: FeeBreakdown;
  exchangeRate: number;
}

const tooSmall = (what: string) => new AppError('INVALID_AMOUNT', `The amount is too small: ${what}`);

/**
 * Prices a payment. Fees are charged on the sent amount and included in it. With the sending side
 * locked, the receiver gets the rest converted (rounded down); with the receiving side locked, the
 * sender pays the smallest total whose rest converts to at least the locked amount.
 */
export function price(input: PricingInput): Price {
  const rate = rateFromDecimal(input.exchangeRate);
  const feesOn = (total: number) => breakdown(total, input.serviceFee, input.platformFee);
  const convert = (amount: number) => convertDown(amount, rate, input.sendingDecimals, input.receivingDecimals);

  if (input.lockedSide === 'SENDING') {
    const totalSending = input.lockedAmount;
    const fees = feesOn(totalSending);
    const converted = totalSending - fees.total;
    if (converted <= 0) throw tooSmall('the fees take all of it');
    const totalReceiving = convert(converted);
    if (totalReceiving <= 0) throw tooSmall('nothing would be received');
    return { totalSending, totalReceiving, converted, fees, exchangeRate: input.exchangeRate };
  }

  const needed = sourceAmountFor(input.lockedAmount, rate, input.sendingDecimals, input.receivingDecimals);
  const totalSending = smallestTotalCovering(needed, input.serviceFee, input.platformFee);
  const fees = feesOn(totalSending);
  return {
    totalSending,
    totalReceiving: input.lockedAmount,
    converted: totalSending - fees.total,
    fees,
    exchangeRate: input.exchangeRate,
  };
}

/** The smallest total T with T − fees(T) ≥ net. fees(T) grows by at most one unit per unit of T. */
function smallestTotalCovering(net: number, service: FeeRule, platform: FeeRule): number {
  const bps = service.variableFeeBps + platform.variableFeeBps;
  if (bps >= 10_000) {
    throw new AppError('INVALID_AMOUNT', 'Fees of 100% or more cannot deliver a locked receiving amount');
  }
  const fixed = addAmounts(service.fixedFee, platform.fixedFee);
  const rest = (total: number) => total - breakdown(total, service, platform).total;
  const estimate = (BigInt(addAmounts(net, fixed)) * 10_000n + BigInt(10_000 - bps) - 1n) / BigInt(10_000 - bps);
  let total = addAmounts(Number(estimate));
  while (rest(total) < net) total = addAmounts(total, 1);
  while (total > 1 && rest(total - 1) >= net) total -= 1;
  return total;
}
