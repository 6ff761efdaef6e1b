import type { AddressFields } from '../../../gen/accounts/v1/external_account_info';
import type {
  BusinessInfoFields,
  CustomerFields,
  StringList,
  TermsConsentFields,
} from '../../../gen/accounts/v1/customer_requests';
import type { Address, BusinessInfo, CustomerProfile, EndUserTermsConsent } from './customer';

/* The customer request messages as the domain's values. Their shapes (formats, lengths, enums) are
   the contract's (lib/contract/customer-requests.ts), checked before a request gets here. */

/** `$user@domain`, as UMA addresses are written. */
export const UMA_ADDRESS = /^\$[a-zA-Z0-9._+-]{1,64}@[a-zA-Z0-9-]+(\.[a-zA-Z0-9-]+)+$/;

/** Copies the defined entries only, so absent members stay absent. */
export function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

const list = (l: StringList | undefined) => l && [...l.values];

export function addressOf(a: AddressFields): Address {
  return defined({
    line1: a.line1 ?? '',
    line2: a.line2,
    city: a.city,
    state: a.state,
    postalCode: a.postalCode ?? '',
    country: a.country ?? '',
  });
}

function consentOf(c: TermsConsentFields): EndUserTermsConsent {
  return {
    acceptedAt: c.acceptedAt ?? '',
    ipAddress: c.ipAddress ?? '',
    termsVersion: c.termsVersion ?? '',
    acceptanceMethod: c.acceptanceMethod ?? '',
  };
}

/** Members every customer type accepts (create and update). */
export function contactProfileOf(f: CustomerFields): CustomerProfile {
  return defined({
    email: f.email,
    phoneNumber: f.phoneNumber,
    umaAddress: f.umaAddress,
    address: f.address && addressOf(f.address),
    endUserTermsConsent: f.endUserTermsConsent && consentOf(f.endUserTermsConsent),
  });
}

export function individualProfileOf(f: CustomerFields): CustomerProfile {
  return defined({
    fullName: f.fullName,
    birthDate: f.birthDate,
    nationality: f.nationality,
    idType: f.idType,
    identifier: f.identifier,
    countryOfIssuance: f.countryOfIssuance,
    sourceOfFundsCategories: list(f.sourceOfFundsCategories),
    sourceOfFundsOtherDescription: f.sourceOfFundsOtherDescription,
    sourceOfWealthCategories: list(f.sourceOfWealthCategories),
    sourceOfWealthOtherDescription: f.sourceOfWealthOtherDescription,
    purposeOfAccount: f.purposeOfAccount,
    purposeOfAccountOtherDescription: f.purposeOfAccountOtherDescription,
    expectedMonthlyTransactionCount: f.expectedMonthlyTransactionCount,
    expectedMonthlyTransactionVolume: f.expectedMonthlyTransactionVolume,
    annualIncomeRange: f.annualIncomeRange,
    netWorthRange: f.netWorthRange,
    pepStatus: f.pepStatus,
  });
}

export function businessInfoOf(b: BusinessInfoFields): BusinessInfo {
  return defined({
    legalName: b.legalName,
    doingBusinessAs: b.doingBusinessAs,
    country: b.country,
    registrationNumber: b.registrationNumber,
    incorporatedOn: b.incorporatedOn,
    entityType: b.entityType,
    taxId: b.taxId,
    countriesOfOperation: list(b.countriesOfOperation),
    businessType: b.businessType,
    purposeOfAccount: b.purposeOfAccount,
    sourceOfFunds: b.sourceOfFunds,
    expectedMonthlyTransactionCount: b.expectedMonthlyTransactionCount,
    expectedMonthlyTransactionVolume: b.expectedMonthlyTransactionVolume,
    expectedRecipientJurisdictions: list(b.expectedRecipientJurisdictions),
    naicsCode: b.naicsCode,
    sourceOfFundsCategories: list(b.sourceOfFundsCategories),
    sourceOfFundsOtherDescription: b.sourceOfFundsOtherDescription,
    purposeOfAccountOtherDescription: b.purposeOfAccountOtherDescription,
    expectedCounterpartyCountries: list(b.expectedCounterpartyCountries),
    primaryContactFirstName: b.primaryContactFirstName,
    primaryContactLastName: b.primaryContactLastName,
  });
}
