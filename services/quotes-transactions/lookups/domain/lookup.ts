import type { Currency } from '../../shared/domain/currency-catalogue';
import type { LookupSender } from './lookup-request';
import type { PayerDataField } from './payer-data-requirements';

/** One currency the receiving account accepts, with the estimate and bounds the lookup offered. */
export interface CurrencyOffer {
  currency: Currency;
  /** Units of this currency per unit of the sender's currency; an estimate, not locked. */
  estimatedExchangeRate: number;
  /** Smallest unit of `currency`, both > 0. */
  min: number;
  max: number;
}

/** What was looked up: an external account of the platform, or an UMA address. */
export type LookupTarget = { accountId: string } | { receiverUmaAddress: string };

/** A completed lookup, kept so that a quote can require it and check against what was offered. */
export interface Lookup {
  id: string;
  platformId: string;
  /** Exactly one of `accountId` and `receiverUmaAddress` is set (the LookupTarget). */
  accountId?: string;
  receiverUmaAddress?: string;
  sender: LookupSender;
  senderCurrency: string;
  offers: CurrencyOffer[];
  requiredPayerDataFields: PayerDataField[];
  createdAt: string;
  expiresAt: string;
}

/** How long a quote may rely on a lookup: rates are estimates and drift. */
export const LOOKUP_VALIDITY_MS = 15 * 60 * 1000;

export function lookupExpiry(createdAt: Date): Date {
  return new Date(createdAt.getTime() + LOOKUP_VALIDITY_MS);
}

/** Senders quote from their own currency; an UMA sender (or a customer without accounts) from USD. */
export const DEFAULT_SENDER_CURRENCY = 'USD';
