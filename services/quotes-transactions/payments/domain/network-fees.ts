import { rateFromDecimal } from '../../shared/domain/money';

/** What the sandbox charges to send on one network: its native fee and what that is worth in USD. */
export interface NetworkFee {
  /** The asset the network takes its fee in (SOL, ETH, ...). */
  asset: string;
  /** The fee in the smallest unit of `asset` (lamports, wei, sun, satoshis). */
  amount: number;
  /** Its value in millionths of a US dollar, the fixed sandbox price of the native asset. */
  usdMicros: number;
}

/**
 * The sandbox's network fees. A payment to a wallet on one of these networks is charged the
 * fee's value in its sending currency (rounded up) as part of the service fee, and
 * POST /crypto/estimate-withdrawal-fee answers the same number.
 */
const SANDBOX_NETWORK_FEES: Readonly<Record<string, NetworkFee>> = {
  SOLANA: { asset: 'SOL', amount: 5_000, usdMicros: 1_000 },
  ETHEREUM: { asset: 'ETH', amount: 150_000_000_000_000, usdMicros: 450_000 },
  BASE: { asset: 'ETH', amount: 3_000_000_000_000, usdMicros: 9_000 },
  POLYGON: { asset: 'POL', amount: 10_000_000_000_000_000, usdMicros: 5_000 },
  TRON: { asset: 'TRX', amount: 1_000_000, usdMicros: 300_000 },
  PLASMA: { asset: 'XPL', amount: 1_000_000_000_000_000, usdMicros: 1_000 },
  SPARK: { asset: 'BTC', amount: 0, usdMicros: 0 },
  LIGHTNING: { asset: 'BTC', amount: 1, usdMicros: 1_000 },
  BITCOIN: { asset: 'BTC', amount: 2_000, usdMicros: 2_000_000 },
};

export const FEE_NETWORKS: readonly string[] = Object.keys(SANDBOX_NETWORK_FEES);

export function networkFeeOf(network: string): NetworkFee | undefined {
  const fee = SANDBOX_NETWORK_FEES[network];
  return fee && { ...fee };
}

/**
 * The fee's value in a currency's smallest unit, rounded up: ⌈usdMicros × rate × 10^decimals / 10^6⌉,
 * `usdRate` being units of the currency per US dollar.
 */
export function networkFeeIn(fee: NetworkFee, usdRate: number, decimals: number): number {
  if (fee.usdMicros === 0) return 0;
  const rate = rateFromDecimal(usdRate);
  const top = BigInt(fee.usdMicros) * rate.numerator * 10n ** BigInt(decimals);
  const bottom = rate.denominator * 1_000_000n;
  return Number((top + bottom - 1n) / bottom);
}
