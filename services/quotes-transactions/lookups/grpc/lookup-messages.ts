import type {
  CurrencyPreference,
  Lookup as LookupMessage,
  LookupExternalAccountResponse,
  LookupUmaResponse,
} from '../../../../gen/quotes_transactions/v1/lookup';
import type { CurrencyOffer, Lookup } from '../domain/lookup';

function currencyPreference(offer: CurrencyOffer): CurrencyPreference {
  return {
    currency: { ...offer.currency },
    estimatedExchangeRate: offer.estimatedExchangeRate,
    min: offer.min,
    max: offer.max,
  };
}

export function toLookupExternalAccountResponse(lookup: Lookup): LookupExternalAccountResponse {
  return {
    supportedCurrencies: lookup.offers.map(currencyPreference),
    requiredPayerDataFields: lookup.requiredPayerDataFields.map((f) => ({ name: f.name, mandatory: f.mandatory })),
    lookupId: lookup.id,
    accountId: lookup.accountId ?? '',
  };
}

export function toLookupUmaResponse(lookup: Lookup): LookupUmaResponse {
  return {
    supportedCurrencies: lookup.offers.map(currencyPreference),
    requiredPayerDataFields: lookup.requiredPayerDataFields.map((f) => ({ name: f.name, mandatory: f.mandatory })),
    lookupId: lookup.id,
    receiverUmaAddress: lookup.receiverUmaAddress ?? '',
  };
}

export function toLookupMessage(lookup: Lookup): LookupMessage {
  return {
    lookupId: lookup.id,
    accountId: lookup.accountId ?? '',
    receiverUmaAddress: lookup.receiverUmaAddress ?? '',
    senderCustomerId: lookup.sender.customerId ?? '',
    senderUmaAddress: lookup.sender.umaAddress ?? '',
    senderCurrency: lookup.senderCurrency,
    supportedCurrencies: lookup.offers.map(currencyPreference),
    requiredPayerDataFields: lookup.requiredPayerDataFields.map((f) => ({ name: f.name, mandatory: f.mandatory })),
    createdAt: lookup.createdAt,
    expiresAt: lookup.expiresAt,
  };
}
