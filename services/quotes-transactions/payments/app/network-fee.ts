import { findCurrency } from '../../shared/domain/currency-catalogue';
import { networkFeeIn, networkFeeOf, type NetworkFee } from '../domain/network-fees';
import type { RateSource } from '../../rates/adapters/rate-source';

/**
 * What sending on `network` costs, in the native asset and in the sending currency's smallest
 * unit at the current rate. Quotes to a wallet and the withdrawal-fee estimate both use it.
 */
export async function networkFeeCharge(
  rates: RateSource,
  network: string | undefined,
  sendingCurrency: string,
): Promise<{ fee: NetworkFee; inSending: number } | undefined> {
  const fee = network ? networkFeeOf(network) : undefined;
  const currency = findCurrency(sendingCurrency);
  if (!fee || !currency) return undefined;
  const usdRate = sendingCurrency === 'USD' ? 1 : await rates.rate('USD', sendingCurrency);
  return { fee, inSending: networkFeeIn(fee, usdRate, currency.decimals) };
}
