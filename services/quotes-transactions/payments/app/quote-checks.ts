import { AppError } from '../../../../lib/errors';
import type { RateSource } from '../../rates/adapters/rate-source';
import type { Currency } from '../../shared/domain/currency-catalogue';
import { VERIFICATION_THRESHOLD_USD_CENTS } from '../domain/limits';
import type { Lookup } from '../../lookups/domain/lookup';
import { convertDown, rateFromDecimal } from '../../shared/domain/money';
import type { PaymentDestination } from '../domain/payment';
import type { GetLookup } from '../../lookups/app/get-lookup';
import {
  checkedSignedLookup,
  lookupExpired,
  lookupForAnotherReceiver,
  type CitedLookup,
  type LookupCitation,
  type SignedLookups,
} from '../../lookups/app/signed-lookups';

/** Whether the lookup was made for this destination; UMA addresses compare without regard to case. */
function looksUp(lookup: Lookup, destination: PaymentDestination): boolean {
  return destination.destinationType === 'ACCOUNT'
    ? lookup.accountId === destination.accountId
    : lookup.receiverUmaAddress?.toLowerCase() === destination.umaAddress.toLowerCase();
}

/**
 * The lookup a quote names: it must exist for the platform (LOOKUP_REQUEST_NOT_FOUND), be
 * fresh, be about this destination, and offer the receiving currency (INVALID_CURRENCY).
 * A signed lookup id proves this itself; any other id is a stored lookup.
 */
export async function checkedLookup(
  { lookups, ...citation }: LookupCitation & { lookups: { getLookup: GetLookup; signed?: SignedLookups } },
): Promise<CitedLookup> {
  const { caller, lookupId, destination, now } = citation;
  if (lookups.signed?.ids.isSigned(lookupId)) return checkedSignedLookup({ signed: lookups.signed, ...citation });
  const lookup = await lookups.getLookup({ caller, lookupId });
  if (now.getTime() >= Date.parse(lookup.expiresAt)) throw lookupExpired();
  if (!looksUp(lookup, destination)) throw lookupForAnotherReceiver(lookup.accountId ?? lookup.receiverUmaAddress);
  return lookup;
}

export function offerFor(lookup: CitedLookup, currency: string): CitedLookup['offers'][number] {
  const offer = lookup.offers.find((o) => o.currency.code === currency);
  if (!offer) throw new AppError('INVALID_CURRENCY', `The account does not receive ${currency}`);
  return offer;
}

export function assertWithinOffer(offer: CitedLookup['offers'][number], received: number): void {
  if (received < offer.min || received > offer.max) {
    throw new AppError(
      'AMOUNT_OUT_OF_RANGE',
      `The receiving amount must be between ${offer.min} and ${offer.max} ${offer.currency.code} minor units`,
      {
        min: offer.min,
        max: offer.max,
        amount: received,
      },
    );
  }
}

const NEEDS_VERIFICATION = new Set(['PENDING_OWNERSHIP_VERIFICATION', 'UNVERIFIED']);

/** An unverified first-party wallet may only receive up to the regulatory threshold. */
export async function assertVerifiedIfRequired(
  rates: RateSource,
  status: string | undefined,
  sent: { amount: number; currency: Currency },
): Promise<void> {
  if (!status || !NEEDS_VERIFICATION.has(status)) return;
  const usdCents = sent.currency.code === 'USD'
    ? sent.amount
    : convertDown(sent.amount, rateFromDecimal(await rates.rate(sent.currency.code, 'USD')), sent.currency.decimals, 2);
  if (usdCents > VERIFICATION_THRESHOLD_USD_CENTS) {
    throw new AppError(
      'EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED',
      'The destination account must complete ownership verification before receiving this amount',
      {
        thresholdUsd: VERIFICATION_THRESHOLD_USD_CENTS / 100,
      },
    );
  }
}
