import type { Address, BusinessInfo, Customer, EndUserTermsConsent } from '../../gen/accounts/v1/accounts';
import type { BeneficialOwner } from '../../gen/accounts/v1/beneficial_owners';
import { ownerJson } from './beneficial-owner-json';
import { nonEmpty, withoutAbsent } from './json-members';

function addressJson(a: Address) {
  return withoutAbsent({
    line1: a.line1,
    line2: a.line2,
    city: a.city,
    state: a.state,
    postalCode: a.postalCode,
    country: a.country,
  });
}

function consentJson(c: EndUserTermsConsent) {
  return {
    acceptedAt: c.acceptedAt,
    ipAddress: c.ipAddress,
    termsVersion: c.termsVersion,
    acceptanceMethod: c.acceptanceMethod,
  };
}

function businessInfoJson(b: BusinessInfo) {
  return withoutAbsent({
    legalName: b.legalName,
    doingBusinessAs: b.doingBusinessAs,
    country: b.country,
    registrationNumber: b.registrationNumber,
    incorporatedOn: b.incorporatedOn,
    entityType: b.entityType,
    taxId: b.taxId,
    countriesOfOperation: nonEmpty(b.countriesOfOperation),
    businessType: b.businessType,
    purposeOfAccount: b.purposeOfAccount,
    sourceOfFunds: b.sourceOfFunds,
    expectedMonthlyTransactionCount: b.expectedMonthlyTransactionCount,
    expectedMonthlyTransactionVolume: b.expectedMonthlyTransactionVolume,
    expectedRecipientJurisdictions: nonEmpty(b.expectedRecipientJurisdictions),
    naicsCode: b.naicsCode,
    sourceOfFundsCategories: nonEmpty(b.sourceOfFundsCategories),
    sourceOfFundsOtherDescription: b.sourceOfFundsOtherDescription,
    purposeOfAccountOtherDescription: b.purposeOfAccountOtherDescription,
    expectedCounterpartyCountries: nonEmpty(b.expectedCounterpartyCountries),
    primaryContactFirstName: b.primaryContactFirstName,
    primaryContactLastName: b.primaryContactLastName,
  });
}

/**
 * The REST IndividualCustomer or BusinessCustomer, member by member; a business embeds its beneficial `owners` when
 * given.
 */
export function customerJson(c: Customer, owners?: BeneficialOwner[]) {
  const common = {
    id: c.id,
    platformCustomerId: c.platformCustomerId,
    customerType: c.customerType,
    endUserTermsConsent: c.endUserTermsConsent ? consentJson(c.endUserTermsConsent) : undefined,
    region: c.region,
    currencies: c.currencies,
    email: c.email,
    phoneNumber: c.phoneNumber,
    umaAddress: c.umaAddress,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    isDeleted: c.isDeleted,
    address: c.address ? addressJson(c.address) : undefined,
    contactVerification: c.contactVerification
      ? withoutAbsent({ email: c.contactVerification.email, phone: c.contactVerification.phone })
      : undefined,
  };
  if (c.customerType === 'BUSINESS') {
    return withoutAbsent({
      ...common,
      kybStatus: c.kybStatus,
      businessInfo: c.businessInfo ? businessInfoJson(c.businessInfo) : undefined,
      beneficialOwners: owners?.map(ownerJson),
    });
  }
  return withoutAbsent({
    ...common,
    kycStatus: c.kycStatus,
    fullName: c.fullName,
    birthDate: c.birthDate,
    nationality: c.nationality,
    idType: c.idType,
    countryOfIssuance: c.countryOfIssuance,
    sourceOfFundsCategories: nonEmpty(c.sourceOfFundsCategories),
    sourceOfFundsOtherDescription: c.sourceOfFundsOtherDescription,
    sourceOfWealthCategories: nonEmpty(c.sourceOfWealthCategories),
    sourceOfWealthOtherDescription: c.sourceOfWealthOtherDescription,
    purposeOfAccount: c.purposeOfAccount,
    purposeOfAccountOtherDescription: c.purposeOfAccountOtherDescription,
    expectedMonthlyTransactionCount: c.expectedMonthlyTransactionCount,
    expectedMonthlyTransactionVolume: c.expectedMonthlyTransactionVolume,
    annualIncomeRange: c.annualIncomeRange,
    netWorthRange: c.netWorthRange,
    pepStatus: c.pepStatus,
  });
}
