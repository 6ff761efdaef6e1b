/**
 * The largest amount the interface accepts, in minor units of any currency: the reference's
 * `lockedCurrencyAmount` maximum. It is below 2^53, so an amount, and a balance kept within it, is an
 * exact JS number and an exact int64 everywhere it travels (JSON, gRPC, the stores). No currency
 * needs more: 21 million BTC are 2.1 × 10^15 satoshis, and token amounts (strings) are converted to
 * whole fiat cents before they move money.
 */
export const MAX_AMOUNT = 9_000_000_000_000_000;
