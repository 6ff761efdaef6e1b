import { AppError } from '../../../../lib/errors';
import { findCurrency } from '../../shared/domain/currency-catalogue';
import type { CurrencyOffer, LookupTarget } from '../domain/lookup';
import type { PaymentDestination } from '../../payments/domain/payment';
import { receivableBounds } from '../../shared/domain/receivable-bounds';
import type { Caller } from '../../shared/app/payment-accounts';
import type { RecentLookups } from './recent-lookups';
import type { SignedLookupIds } from './signed-lookup-ids';

/** Lookups answered with a signed id instead of a stored record. */
export interface SignedLookups {
  ids: SignedLookupIds;
  recent: RecentLookups;
}

/**
 * What a quote uses of the lookup it cites: its expiry and what it offered (the estimated rates are not used: the quote
 * prices anew).
 */
export interface CitedLookup {
  expiresAt: string;
  offers: Array<Omit<CurrencyOffer, 'estimatedExchangeRate'>>;
}

export function targetOf(destination: PaymentDestination): LookupTarget {
  return destination.destinationType === 'ACCOUNT'
    ? { accountId: destination.accountId }
    : { receiverUmaAddress: destination.umaAddress };
}

export const lookupExpired = () =>
  AppError.invalidInput('The lookup has expired', [{
    field: 'lookupId',
    message: 'has expired; look the receiver up again',
  }]);

export const lookupForAnotherReceiver = (madeFor: string | undefined) =>
  AppError.invalidInput('The lookup is for another receiver', [{
    field: 'lookupId',
    message: madeFor ? `was made for ${madeFor}` : 'was made for another receiver',
  }]);

/** A quote's caller citing the lookup `lookupId` for `destination` at `now`. */
export interface LookupCitation {
  caller: Caller;
  lookupId: string;
  destination: PaymentDestination;
  now: Date;
}

/**
 * The checks of a quote citing a signed lookup, as for a stored one: made for this platform
 * (LOOKUP_REQUEST_NOT_FOUND otherwise), fresh, about this receiver. The id is verified against the
 * quote's own platform and receiver; when it does not verify but this process made it for the
 * platform, the answer names the receiver it was made for, as a stored lookup's would.
 */
export function checkedSignedLookup(
  { signed, caller, lookupId, destination, now }: LookupCitation & { signed: SignedLookups },
): CitedLookup {
  const verified = signed.ids.verify(caller.platformId, targetOf(destination), lookupId);
  if (!verified) {
    const made = signed.recent.find(caller.platformId, lookupId);
    if (!made) throw new AppError('LOOKUP_REQUEST_NOT_FOUND', `Lookup ${lookupId} not found`);
    if (now.getTime() >= Date.parse(made.expiresAt)) throw lookupExpired();
    throw lookupForAnotherReceiver(made.accountId ?? made.receiverUmaAddress);
  }
  if (now.getTime() >= verified.expiresAt.getTime()) throw lookupExpired();
  const offers = verified.codes.flatMap((code) => {
    const currency = findCurrency(code);
    const bounds = receivableBounds(code);
    return currency && bounds ? [{ currency, ...bounds }] : [];
  });
  return { expiresAt: verified.expiresAt.toISOString(), offers };
}
