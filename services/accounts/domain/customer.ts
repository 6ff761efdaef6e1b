import type { CustomerType } from '../../../lib/contract/customer-vocabulary';
import { initialContactVerification, type ContactVerificationState } from './contact-verification';
import type { ProvisioningStep } from './provisioning-plan';

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
  /** Identification number: write-only, never returned, stored only sealed. */
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

/** A stored customer: the identification number is kept sealed, never in plain text. */
export interface Customer extends Omit<CustomerProfile, 'identifier'> {
  id: string;
  platformId: string;
  platformCustomerId: string;
  customerType: CustomerType;
  region?: string;
  currencies: string[];
  umaAddress: string;
  /** KYC (individual) or KYB (business) status; only verification outcomes change it. */
  verificationStatus: string;
  /** Present only where the customer's region requires contact verification. */
  contactVerification?: ContactVerificationState;
  isDeleted: boolean;
  createdAt: string;
  updatedAt: string;
  /** Incremented by every write; updates are conditional on it. */
  revision: number;
  /** `identifier`, sealed by the service's PII key (bound to the customer id). */
  sealedIdentifier?: string;
  /** Internal accounts still to open (or wallets to provision); empty once complete. */
  provisioning?: ProvisioningStep[];
  /** A signed email change under way: its wallet credentials may already carry the new email. */
  emailChange?: PendingEmailChange;
}

/** Claimed before the credentials' email is synced, released once the customer is written or restored. */
export interface PendingEmailChange {
  requestId: string;
  startedAt: string;
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

export interface NewCustomerFacts {
  id: string;
  platformId: string;
  umaAddress: string;
  platformCustomerId: string;
  sealedIdentifier?: string;
}

export function newCustomer(
  draft: CustomerDraft,
  facts: NewCustomerFacts,
  defaultCurrencies: string[],
  now: string,
): Customer {
  const { identifier: _plain, ...profile } = draft.profile;
  return {
    ...profile,
    ...(facts.sealedIdentifier !== undefined ? { sealedIdentifier: facts.sealedIdentifier } : {}),
    id: facts.id,
    platformId: facts.platformId,
    platformCustomerId: draft.platformCustomerId ?? facts.platformCustomerId,
    customerType: draft.customerType,
    ...(draft.region !== undefined ? { region: draft.region } : {}),
    currencies: draft.currencies ?? defaultCurrencies,
    umaAddress: draft.profile.umaAddress ?? facts.umaAddress,
    verificationStatus: 'UNVERIFIED',
    ...(initialContactVerification(draft.region)
      ? { contactVerification: initialContactVerification(draft.region) }
      : {}),
    isDeleted: false,
    createdAt: now,
    updatedAt: now,
    revision: 1,
  };
}

/**
 * The customer after `changes`; businessInfo members merge, every other member replaces. A new
 * identification number arrives already sealed.
 */
export function applyCustomerChanges(
  customer: Customer,
  changes: CustomerChanges,
  now: string,
  sealedIdentifier?: string,
): Customer {
  const { businessInfo, identifier: _plain, ...rest } = changes.profile;
  const next: Customer = { ...customer, ...rest, updatedAt: now, revision: customer.revision + 1 };
  if (sealedIdentifier !== undefined) next.sealedIdentifier = sealedIdentifier;
  if (businessInfo) next.businessInfo = { ...customer.businessInfo, ...businessInfo };
  if (changes.currencies) next.currencies = changes.currencies;
  next.contactVerification = reverifiedContacts(customer, next);
  if (!next.contactVerification) delete next.contactVerification;
  return next;
}

/** A changed email or phone number has to be verified again where the region requires it. */
function reverifiedContacts(previous: Customer, next: Customer): ContactVerificationState | undefined {
  const state = previous.contactVerification;
  if (!state) return undefined;
  return {
    ...state,
    ...(state.email && next.email !== previous.email ? { email: 'PENDING' as const } : {}),
    ...(state.phone && next.phoneNumber !== previous.phoneNumber ? { phone: 'PENDING' as const } : {}),
  };
}

/** Currencies in `next` that `previous` lacks (internal accounts to open). */
export function addedCurrencies(previous: string[], next: string[]): string[] {
  return next.filter((c) => !previous.includes(c));
}
