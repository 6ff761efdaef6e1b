import { currencySpec } from '../../../../lib/currencies';
import { AppError } from '../../../../lib/errors';
import type { RateSource } from '../../rates/adapters/rate-source';
import { CURRENCY_CODES, findCurrency, type Currency } from '../../shared/domain/currency-catalogue';
import { breakdown, platformFeeRule, serviceFeeRule } from '../domain/fees';
import { MAX_AMOUNT } from '../../shared/domain/money';
import { price } from '../domain/pricing';
import { receivableBounds } from '../../shared/domain/receivable-bounds';
import type { Caller } from '../../shared/app/payment-accounts';
import type { PaymentSettingsSource } from '../../shared/app/payment-settings';

/** The rail each payout currency settles on by default (lib/currencies.ts); corridors exist to these currencies. */
const DEFAULT_RAILS: Readonly<Record<string, string>> = Object.fromEntries(
  CURRENCY_CODES.flatMap((code) => {
    const rail = currencySpec(code)?.defaultRail;
    return rail ? [[code, rail]] : [];
  }),
);

export const RATE_CACHE_MS = 5 * 60 * 1000;
export const DEFAULT_SENDING_AMOUNT = 10_000;

export interface IndicativeRate {
  sourceCurrency: Currency;
  destinationCurrency: Currency;
  destinationPaymentRail: string;
  sendingAmount: number;
  minSendingAmount: number;
  maxSendingAmount: number;
  receivingAmount: number;
  exchangeRate: number;
  fees: { fixed: number; total: number };
  updatedAt: string;
}

/** Indicative rates per corridor, fetched at most every 5 minutes per pair, priced with the platform's fees. */
export function createExchangeRates(
  deps: { rates: RateSource; settings: PaymentSettingsSource; clock: () => Date; cacheMs?: number },
) {
  const cacheMs = deps.cacheMs ?? RATE_CACHE_MS;
  const cache = new Map<string, { rate: number; fetchedAt: Date }>();

  async function cachedRate(from: string, to: string) {
    const key = `${from}/${to}`;
    const hit = cache.get(key);
    if (hit && deps.clock().getTime() - hit.fetchedAt.getTime() < cacheMs) return hit;
    const fresh = { rate: await deps.rates.rate(from, to), fetchedAt: deps.clock() };
    cache.set(key, fresh);
    return fresh;
  }

  /** A pair the configured rate source publishes no rate for is left out of the listing. */
  async function rateUnlessUncovered(from: string, to: string) {
    try {
      return await cachedRate(from, to);
    } catch (err) {
      if (err instanceof AppError && err.code === 'INVALID_CURRENCY') return undefined;
      throw err;
    }
  }

  const known = (code: string) => {
    const currency = findCurrency(code);
    if (!currency) throw new AppError('INVALID_CURRENCY', `${code} is not a supported currency`);
    return currency;
  };

  return async function listExchangeRates(
    command: { caller: Caller; sourceCurrency?: string; destinationCurrencies: string[]; sendingAmount?: number },
  ): Promise<IndicativeRate[]> {
    const amount = command.sendingAmount ?? DEFAULT_SENDING_AMOUNT;
    if (!Number.isSafeInteger(amount) || amount < 0 || amount > MAX_AMOUNT) {
      throw new AppError('INVALID_AMOUNT', 'sendingAmount must be an integer ≥ 0 (minor units)');
    }
    const sources = (command.sourceCurrency ? [command.sourceCurrency] : CURRENCY_CODES).map(known);
    const destinations =
      (command.destinationCurrencies.length ? command.destinationCurrencies : Object.keys(DEFAULT_RAILS)).map(known);
    const { feeConfigs } = await deps.settings.get(command.caller);
    const out: IndicativeRate[] = [];
    for (const source of sources) {
      for (const destination of destinations) {
        const rail = DEFAULT_RAILS[destination.code];
        if (!rail || source.code === destination.code) continue;
        const quoted = await rateUnlessUncovered(source.code, destination.code);
        if (!quoted) continue;
        const { rate, fetchedAt } = quoted;
        const service = serviceFeeRule(true);
        const platform = platformFeeRule({ sendingCurrency: source.code, crossCurrency: true, configs: feeConfigs });
        const fees = breakdown(amount, service, platform);
        let receivingAmount = 0;
        try {
          receivingAmount = price({
            lockedSide: 'SENDING',
            lockedAmount: amount,
            sendingDecimals: source.decimals,
            receivingDecimals: destination.decimals,
            exchangeRate: rate,
            serviceFee: service,
            platformFee: platform,
          }).totalReceiving;
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
        }
        const bounds = receivableBounds(source.code) ?? { min: 1, max: MAX_AMOUNT };
        out.push({
          sourceCurrency: source,
          destinationCurrency: destination,
          destinationPaymentRail: rail,
          sendingAmount: amount,
          minSendingAmount: bounds.min,
          maxSendingAmount: bounds.max,
          receivingAmount,
          exchangeRate: rate,
          fees: { fixed: fees.service.fixed + fees.platform.fixed, total: fees.total },
          updatedAt: fetchedAt.toISOString(),
        });
      }
    }
    return out;
  };
}

export type ListExchangeRates = ReturnType<typeof createExchangeRates>;
