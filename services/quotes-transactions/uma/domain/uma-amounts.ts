/** Millisatoshis in one bitcoin. */
const MSATS_PER_BTC = 100_000_000_000;

/** Estimated millisatoshis per smallest unit of a currency, from its rate to BTC (BTC per whole unit); at least 1. */
export function msatsPerUnit(btcPerUnit: number, decimals: number): number {
  return Math.max(1, Math.round((btcPerUnit * MSATS_PER_BTC) / 10 ** decimals));
}

/** The smallest units of a currency that `msats` buy at `multiplier` msats per unit, after the receiver's fee. */
export function unitsForMsats(msats: number, multiplier: number, feeMsats: number): number {
  return Math.floor((msats - feeMsats) / multiplier);
}

/**
 * A counterparty's bounds (`min`/`max` in smallest units of `decimals` digits) in our smallest units
 * of `ourDecimals` digits: the minimum rounded up, the maximum down; undefined when nothing fits.
 */
export function boundsInOurUnits(
  bounds: { min: number; max: number; decimals: number },
  ourDecimals: number,
): { min: number; max: number } | undefined {
  const scale = 10 ** (ourDecimals - bounds.decimals);
  const min = Math.max(1, Math.ceil(bounds.min * scale));
  const max = Math.floor(bounds.max * scale);
  return Number.isSafeInteger(min) && Number.isSafeInteger(max) && min <= max ? { min, max } : undefined;
}
