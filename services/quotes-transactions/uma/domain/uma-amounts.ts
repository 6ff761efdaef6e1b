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
