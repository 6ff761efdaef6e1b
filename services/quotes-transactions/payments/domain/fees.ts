import { AppError } from '../../../../lib/errors';
import { addAmounts, basisPointsOf } from '../../shared/domain/money';

/** A fee of a fixed part (minor units of the sending currency) plus basis points of the sent amount. */
export interface FeeRule {
  fixedFee: number;
  variableFeeBps: number;
}

export interface FeeCharge {
  fixed: number;
  variable: number;
  total: number;
}

export interface FeeBreakdown {
  service: FeeCharge;
  platform: FeeCharge;
  /** service + platform: the quote's `feesIncluded`. */
  total: number;
}

/** A platform fee configuration (the reference's FeeConfig). */
export interface PlatformFeeConfig {
  feeType: 'CROSS_CURRENCY_TRANSACTION';
  sourceCurrency: string;
  variableFeeBps: number;
  fixedFee: { amount: number; currency: string };
}

/** The per-quote override (the reference's PlatformFeeOverride), already validated. */
export interface PlatformFeeOverride {
  fixedFee: { amount: number; currency: string };
  variableFeeBps: number;
}

/** Platform fees exist for USD sources only (interface "Limits": fee override and config). */
export const PLATFORM_FEE_CURRENCY = 'USD';

/**
 * The service's own fee: 10 bps on cross-currency payments, nothing on same-currency ones, plus
 * (as its fixed part) the network fee of a payment to a wallet, in the sending currency.
 */
export function serviceFeeRule(crossCurrency: boolean, networkFee = 0): FeeRule {
  return { fixedFee: networkFee, variableFeeBps: crossCurrency ? 10 : 0 };
}

export const NO_FEE: FeeRule = { fixedFee: 0, variableFeeBps: 0 };

export function charge(amount: number, rule: FeeRule): FeeCharge {
  const variable = basisPointsOf(amount, rule.variableFeeBps);
  return { fixed: rule.fixedFee, variable, total: addAmounts(rule.fixedFee, variable) };
}

export function breakdown(amount: number, service: FeeRule, platform: FeeRule): FeeBreakdown {
  const s = charge(amount, service);
  const p = charge(amount, platform);
  return { service: s, platform: p, total: addAmounts(s.total, p.total) };
}

/**
 * The platform fee that applies: the override when given (USD sources only), else the configured
 * cross-currency fee for the sending currency, else none.
 */
export function platformFeeRule(input: {
  sendingCurrency: string;
  crossCurrency: boolean;
  configs: readonly PlatformFeeConfig[];
  override?: PlatformFeeOverride;
}): FeeRule {
  if (input.override) {
    if (input.sendingCurrency !== PLATFORM_FEE_CURRENCY) {
      throw AppError.invalidInput('platformFeeOverride is supported for USD sources only', [
        {
          field: 'platformFeeOverride',
          message: `the sending currency is ${input.sendingCurrency}; only USD sources take a platform fee`,
        },
      ]);
    }
    if (input.override.fixedFee.currency !== input.sendingCurrency) {
      throw AppError.invalidInput('The fixed fee must be in the sending currency', [
        { field: 'platformFeeOverride.platformFixedFee.currency', message: `must be ${input.sendingCurrency}` },
      ]);
    }
    return { fixedFee: input.override.fixedFee.amount, variableFeeBps: input.override.variableFeeBps };
  }
  if (!input.crossCurrency || input.sendingCurrency !== PLATFORM_FEE_CURRENCY) return NO_FEE;
  const config = input.configs.find((c) =>
    c.feeType === 'CROSS_CURRENCY_TRANSACTION' && c.sourceCurrency === input.sendingCurrency
  );
  if (!config) return NO_FEE;
  return { fixedFee: config.fixedFee.amount, variableFeeBps: config.variableFeeBps };
}
