import { AppError } from '../../../../lib/errors';
import { newId } from '../../../../lib/ids';
import type { RateSource } from '../../rates/adapters/rate-source';
import { findCurrency } from '../../shared/domain/currency-catalogue';
import {
  DEFAULT_SENDER_CURRENCY,
  lookupExpiry,
  type CurrencyOffer,
  type Lookup,
  type LookupTarget,
} from '../domain/lookup';
import type { LookupSender } from '../domain/lookup-request';
import type { PayerDataField } from '../domain/payer-data-requirements';
import { receivableBounds, type ReceivableBounds } from '../../shared/domain/receivable-bounds';
import type { AccountsDirectory, Caller } from './accounts-directory';
import type { LookupStore } from './lookup-store';
import type { SignedLookups } from './signed-lookups';

export interface LookupRecorderDeps {
  accounts: Pick<AccountsDirectory, 'senderCurrency'>;
  rates: RateSource;
  store: LookupStore;
  now?: () => Date;
  /** With these, a lookup whose offer fits in a signed id is not stored (see signed-lookup-ids.ts). */
  signed?: SignedLookups;
}

/** What the receiving side answered about a lookup target. */
export interface ReceiverOffer {
  caller: Caller;
  target: LookupTarget;
  sender: LookupSender;
  senderCurrency: string;
  /** Currency codes the receiver accepts. */
  currencies: string[];
  requiredPayerDataFields: PayerDataField[];
  /**
   * The receiver's own bounds per currency (an UMA counterparty's answer), in our smallest units;
   * a currency without them is not offered. Absent: our table's bounds.
   */
  bounds?: Record<string, ReceivableBounds>;
}

/**
 * What every receiver lookup shares, whatever it looks up: the sender's currency, the estimated
 * rate and bounds of each currency the receiver accepts, and the stored Lookup a quote relies on.
 */
export function createLookupRecorder(deps: LookupRecorderDeps) {
  const now = deps.now ?? (() => new Date());

  /** The currency a sender pays in, from what the accounts service answered about its customer (null: none such). */
  function senderCurrencyOf(sender: LookupSender, found: { currency: string | undefined } | null | undefined): string {
    if (!sender.customerId) return DEFAULT_SENDER_CURRENCY;
    if (!found) throw new AppError('USER_NOT_FOUND', `Customer ${sender.customerId} not found`);
    return found.currency ?? DEFAULT_SENDER_CURRENCY;
  }

  async function senderCurrency(caller: Caller, sender: LookupSender): Promise<string> {
    if (!sender.customerId) return DEFAULT_SENDER_CURRENCY;
    const currency = await deps.accounts.senderCurrency(caller, sender.customerId);
    return senderCurrencyOf(sender, currency === null ? null : { currency });
  }

  async function offer(
    from: string,
    code: string,
    given?: Record<string, ReceivableBounds>,
  ): Promise<CurrencyOffer | undefined> {
    const currency = findCurrency(code);
    const bounds = given ? given[code] && { ...given[code] } : receivableBounds(code);
    if (!currency || !bounds) return undefined;
    const estimatedExchangeRate = await deps.rates.rate(from, code);
    if (!Number.isFinite(estimatedExchangeRate) || estimatedExchangeRate <= 0) {
      throw new Error(`rate source answered ${estimatedExchangeRate} for ${from}→${code}`);
    }
    return { currency, estimatedExchangeRate, ...bounds };
  }

  /**
   * Prices the receiver's currencies and records the lookup (a signed id, or a stored one); LOOKUP_REQUEST_FAILED if
   * none can be paid.
   */
  async function record(input: ReceiverOffer): Promise<Lookup> {
    const codes = [...new Set(input.currencies)];
    const priced = await Promise.all(codes.map((code) => offer(input.senderCurrency, code, input.bounds)));
    const offers = priced.filter((o): o is CurrencyOffer => !!o);
    if (offers.length === 0) {
      throw new AppError(
        'LOOKUP_REQUEST_FAILED',
        `The receiver accepts ${codes.join(', ') || 'no currency'}, which cannot be paid out`,
      );
    }
    const createdAt = now();
    const expiresAt = lookupExpiry(createdAt);
    const content = {
      platformId: input.caller.platformId,
      ...input.target,
      sender: input.sender,
      senderCurrency: input.senderCurrency,
      offers,
      requiredPayerDataFields: input.requiredPayerDataFields,
      createdAt: createdAt.toISOString(),
      expiresAt: expiresAt.toISOString(),
    };
    // A signed id carries the expiry to the second: its lookup's times are whole seconds.
    const signedCreatedAt = new Date(Math.floor(createdAt.getTime() / 1000) * 1000);
    const signedExpiry = lookupExpiry(signedCreatedAt);
    // A signed id carries currency codes only, whose bounds are our table's: the receiver's own bounds are stored.
    const signedId = input.bounds ? undefined : deps.signed?.ids.sign({
      platformId: content.platformId,
      target: input.target,
      expiresAt: signedExpiry,
      codes: offers.map((o) => o.currency.code),
    });
    if (signedId) {
      // Nothing to store: the id proves to a later quote what it needs, so nothing acknowledged can be lost.
      const lookup: Lookup = {
        id: signedId,
        ...content,
        createdAt: signedCreatedAt.toISOString(),
        expiresAt: signedExpiry.toISOString(),
      };
      deps.signed!.recent.remember(lookup);
      return lookup;
    }
    const lookup: Lookup = { id: newId('Lookup'), ...content };
    await deps.store.save(lookup);
    return lookup;
  }

  return { senderCurrency, senderCurrencyOf, record };
}

export type LookupRecorder = ReturnType<typeof createLookupRecorder>;
