import type { CustomerType } from './customer-vocabulary';

export interface Address {
  line1: string;
  line2?: string;
  city?: string;
  state?: string;
  postalCode: string;
  country: string;
}

export interface EndUserTermsConsent {
  acceptedAt: string;
  ipAddress: string;
  termsVersion: string;
  acceptanceMethod: string;
}

/** Every member optional: on create `legalName`, `country`, `taxId` and `incorporatedOn` are required. */
export interface BusinessInfo {
  legalName?: string;
  doingBusinessAs?: string;
  country?: string;
  registrationNumber?: string;
  incorporatedOn?: string;
  entityType?: string;
  taxId?: string;
  countriesOfOperation?: string[];
  businessType?: string;
  purposeOfAccount?: string;
  sourceOfFunds?: string;
  expectedMonthlyTransactionCount?: string;
  expectedMonthlyTransactionVolume?: string;
  expectedRecipientJurisdictions?: string[];
  naicsCode?: string;
  sourceOfFundsCategories?: string[];
  sourceOfFundsOtherDescription?: string;
  purposeOfAccountOtherDescription?: string;
  expectedCounterpartyCountries?: string[];
  primaryContactFirstName?: string;
  primaryContactLastName?: string;
}

/** The customer data a platform submits (create) or changes (update). Absent means "not given". */
export interface CustomerProfile {
  email?: string;
  phoneNumber?: string;
  umaAddress?: string;
  address?: Address;
  endUserTermsConsent?: EndUserTermsConsent;
  // Individual
  fullName?: string;
  birthDate?: string;
  nationality?: string;
  idType?: string;
  /** Identification number: write-only, never returned. */
  identifier?: string;
  countryOfIssuance?: string;
  sourceOfFundsCategories?: string[];
  sourceOfFundsOtherDescription?: string;
  sourceOfWealthCategories?: string[];
  sourceOfWealthOtherDescription?: string;
  purposeOfAccount?: string;
  purposeOfAccountOtherDescription?: string;
  expectedMonthlyTransactionCount?: string;
  expectedMonthlyTransactionVolume?: string;
  annualIncomeRange?: string;
  netWorthRange?: string;
  pepStatus?: string;
  // Business
  businessInfo?: BusinessInfo;
}

export interface Customer extends CustomerProfile {
  id: string;
  platformId: string;
  platformCustomerId: string;
  customerType: CustomerType;
  region?: string;
  currencies: string[];
  umaAddress: string;
  /** KYC (individual) or KYB (business) status. */
  verificationStatus: string;
  isDeleted: boolean;
  createdAt: string;
  updatedAt: string;
  /** Incremented by every write; updates are conditional on it. */
  revision: number;
}

/** A validated create request. */
export interface CustomerDraft {
  customerType: CustomerType;
  platformCustomerId?: string;
  region?: string;
  currencies?: string[];
  profile: CustomerProfile;
}

/** A validated update request: only the members present change. */
export interface CustomerChanges {
  currencies?: string[];
  profile: CustomerProfile;
}

export function newCustomer(draft: CustomerDraft, ids: { id: string; platformId: string; umaAddress: string; platformCustomerId: string }, defaultCurrencies: string[], now: string): Customer {
  return {
    ...draft.profile,
    id: ids.id,
    platformId: ids.platformId,
    platformCustomerId: draft.platformCustomerId ?? ids.platformCustomerId,
    customerType: draft.customerType,
    ...(draft.region !== undefined ? { region: draft.region } : {}),
    currencies: draft.currencies ?? defaultCurrencies,
    umaAddress: draft.profile.umaAddress ?? ids.umaAddress,
    verificationStatus: 'UNVERIFIED',
    isDeleted: false,
    createdAt: now,
    updatedAt: now,
    revision: 1,
  };
}

/** The customer after `changes`; businessInfo members merge, every other member replaces. */
export function applyCustomerChanges(customer: Customer, changes: CustomerChanges, now: string): Customer {
  const { businessInfo, ...rest } = changes.profile;
  const next: Customer = { ...customer, ...rest, updatedAt: now, revision: customer.revision + 1 };
  if (businessInfo) next.businessInfo = { ...customer.businessInfo, ...businessInfo };
  if (changes.currencies) next.currencies = changes.currencies;
  return next;
}

/** Currencies in `next` that `previous` lacks (internal accounts to open). */
export function addedCurrencies(previous: string[], next: string[]): string[] {
  return next.filter((c) => !previous.includes(c));
}
