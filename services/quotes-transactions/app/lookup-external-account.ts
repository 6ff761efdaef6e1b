import { AppError } from '../../../lib/errors';
import { newId } from '../../../lib/ids';
import type { Counterparty } from '../adapters/counterparty';
import type { RateSource } from '../adapters/rate-source';
import { findCurrency } from '../domain/currency-catalogue';
import { DEFAULT_SENDER_CURRENCY, lookupExpiry, type CurrencyOffer, type Lookup } from '../domain/lookup';
import { parseLookupRequest, type LookupParameters, type LookupSender } from '../domain/lookup-request';
import { mergePayerDataFields, requiredPayerDataFields } from '../domain/payer-data-requirements';
import { receivableBounds } from '../domain/receivable-bounds';
import { describeDestination } from '../domain/receiving-destination';
import type { AccountsDirectory, Caller } from './accounts-directory';
import type { LookupStore } from './lookup-store';

export interface LookupExternalAccountCommand extends LookupParameters {
  caller: Caller;
}

export interface LookupExternalAccountDeps {
  accounts: AccountsDirectory;
  counterparty: Counterparty;
  rates: RateSource;
  store: LookupStore;
  now?: () => Date;
}

/**
 * Looks up an external account for payment: who sends, what the receiving institution
 * accepts, at which estimated rates and within which bounds. The offer is stored as a Lookup.
 */
export function createLookupExternalAccount(deps: LookupExternalAccountDeps) {
  const now = deps.now ?? (() => new Date());

  async function senderCurrency(caller: Caller, sender: LookupSender): Promise<string> {
    if (!sender.customerId) return DEFAULT_SENDER_CURRENCY;
    const currency = await deps.accounts.senderCurrency(caller, sender.customerId);
    if (currency === null) throw new AppError('USER_NOT_FOUND', `Customer ${sender.customerId} not found`);
    return currency ?? DEFAULT_SENDER_CURRENCY;
  }

  async function offer(from: string, code: string): Promise<CurrencyOffer | undefined> {
    const currency = findCurrency(code);
    const bounds = receivableBounds(code);
    if (!currency || !bounds) return undefined;
    const estimatedExchangeRate = await deps.rates.rate(from, code);
    if (!Number.isFinite(estimatedExchangeRate) || estimatedExchangeRate <= 0) {
      throw new Error(`rate source answered ${estimatedExchangeRate} for ${from}→${code}`);
    }
    return { currency, estimatedExchangeRate, ...bounds };
  }

  return async function lookupExternalAccount(command: LookupExternalAccountCommand): Promise<Lookup> {
    const { caller } = command;
    const request = parseLookupRequest(command);
    const fromCurrency = await senderCurrency(caller, request.sender);

    const account = await deps.accounts.externalAccount(caller, request.accountId);
    if (!account) throw new AppError('NOT_FOUND', `External account ${request.accountId} not found`);
    const destination = describeDestination(account);

    const answer = await deps.counterparty.lookup({ destination, sender: request.sender });
    const codes = [...new Set(answer.currencies)];
    const offers = (await Promise.all(codes.map((code) => offer(fromCurrency, code)))).filter((o): o is CurrencyOffer => !!o);
    if (offers.length === 0) {
      throw new AppError('LOOKUP_REQUEST_FAILED', `The account receives ${codes.join(', ') || 'no currency'}, which cannot be paid out`);
    }

    const createdAt = now();
    const lookup: Lookup = {
      id: newId('Lookup'),
      platformId: caller.platformId,
      accountId: account.id,
      sender: request.sender,
      senderCurrency: fromCurrency,
      offers,
      requiredPayerDataFields: mergePayerDataFields(requiredPayerDataFields(destination), answer.requiredPayerData),
      createdAt: createdAt.toISOString(),
      expiresAt: lookupExpiry(createdAt).toISOString(),
    };
    await deps.store.save(lookup);
    return lookup;
  };
}

export type LookupExternalAccount = ReturnType<typeof createLookupExternalAccount>;
