import type * as pb from '../../../gen/accounts/v1/accounts';
import type { InternalAccountSummary } from '../../../gen/accounts/v1/payment_party_requests';
import type { Platform as PlatformMessage } from '../../../gen/accounts/v1/platforms';
import type { Platform } from '../app/accounts-store';
import { withPaymentRails } from '../domain/external-account-validation';
import { currencyInfo } from '../domain/currencies';
import type { BusinessInfo, Customer } from '../domain/customer';
import { acceptsCurrentTerms, type EndUserTermsCatalogue } from '../domain/end-user-terms';
import type { ExternalAccount } from '../domain/external-account';
import type { InternalAccount } from '../domain/internal-account';

/** Domain records to the typed proto messages. Write-only data (the identification number) never leaves. */
export function platformMessage(p: Platform): PlatformMessage {
  return {
    id: p.id,
    name: p.name,
    supportedCurrencies: p.supportedCurrencies,
    umaDomain: p.umaDomain,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    embeddedWalletConfig: p.settings?.embeddedWalletConfig,
  };
}

function businessInfoMessage(b: BusinessInfo): pb.BusinessInfo {
  return {
    ...b,
    legalName: b.legalName ?? '',
    countriesOfOperation: b.countriesOfOperation ?? [],
    expectedRecipientJurisdictions: b.expectedRecipientJurisdictions ?? [],
    sourceOfFundsCategories: b.sourceOfFundsCategories ?? [],
    expectedCounterpartyCountries: b.expectedCounterpartyCountries ?? [],
  };
}

/** Whether a customer's KYC/KYB status stops it from sending money. */
export function kycBlocksPayments(status: string, requireApproval: boolean): boolean {
  return requireApproval ? status !== 'APPROVED' : status === 'REJECTED' || status === 'HOLD';
}

export function customerMessage(c: Customer, terms: EndUserTermsCatalogue, requireApproval = false): pb.Customer {
  const individual = c.customerType === 'INDIVIDUAL';
  return {
    id: c.id,
    platformCustomerId: c.platformCustomerId,
    customerType: c.customerType as pb.Customer_Type,
    region: c.region,
    currencies: c.currencies,
    email: c.email,
    phoneNumber: c.phoneNumber,
    umaAddress: c.umaAddress,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    isDeleted: c.isDeleted,
    endUserTermsConsent: c.endUserTermsConsent
      && {
        ...c.endUserTermsConsent,
        acceptanceMethod: c.endUserTermsConsent.acceptanceMethod as pb.EndUserTermsConsent_AcceptanceMethod,
      },
    address: c.address,
    acceptedTermsVersion: c.endUserTermsConsent?.termsVersion,
    acceptsCurrentTerms: acceptsCurrentTerms(terms, c.endUserTermsConsent),
    kycBlocksPayments: kycBlocksPayments(c.verificationStatus, requireApproval),
    contactVerification: c.contactVerification as pb.ContactVerification | undefined,
    kycStatus: individual ? (c.verificationStatus as pb.Customer_VerificationStatus | undefined) : undefined,
    fullName: c.fullName,
    birthDate: c.birthDate,
    nationality: c.nationality,
    idType: c.idType,
    countryOfIssuance: c.countryOfIssuance,
    sourceOfFundsCategories: c.sourceOfFundsCategories ?? [],
    sourceOfFundsOtherDescription: c.sourceOfFundsOtherDescription,
    sourceOfWealthCategories: c.sourceOfWealthCategories ?? [],
    sourceOfWealthOtherDescription: c.sourceOfWealthOtherDescription,
    purposeOfAccount: c.purposeOfAccount,
    purposeOfAccountOtherDescription: c.purposeOfAccountOtherDescription,
    expectedMonthlyTransactionCount: c.expectedMonthlyTransactionCount,
    expectedMonthlyTransactionVolume: c.expectedMonthlyTransactionVolume,
    annualIncomeRange: c.annualIncomeRange,
    netWorthRange: c.netWorthRange,
    pepStatus: c.pepStatus as pb.Customer_PepStatus | undefined,
    kybStatus: individual ? undefined : (c.verificationStatus as pb.Customer_VerificationStatus | undefined),
    businessInfo: c.businessInfo ? businessInfoMessage(c.businessInfo) : undefined,
  };
}

function amount(minorUnits: number, currency: string): pb.CurrencyAmount {
  const { code, name, symbol, decimals } = currencyInfo(currency);
  return { amount: minorUnits, currency: { code, name, symbol, decimals } };
}

export function internalAccountMessage(a: InternalAccount): pb.InternalAccount {
  return {
    id: a.id,
    customerId: a.customerId,
    type: a.type as pb.InternalAccount_Type,
    status: a.status as pb.InternalAccount_Status,
    balance: amount(a.availableBalance, a.currency),
    totalBalance: amount(a.totalBalance, a.currency),
    fundingPaymentInstructions: [],
    privateEnabled: a.privateEnabled,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
  };
}

/** Without balances: those are the ledger's (GetPaymentParties). */
export function internalAccountSummaryMessage(a: InternalAccount): InternalAccountSummary {
  return { id: a.id, customerId: a.customerId, type: a.type, status: a.status, currency: a.currency };
}

export function externalAccountMessage(a: ExternalAccount): pb.ExternalAccount {
  return {
    id: a.id,
    customerId: a.customerId,
    status: a.status as pb.ExternalAccount_Status,
    platformAccountId: a.platformAccountId,
    ownershipType: a.ownershipType as pb.ExternalAccount_OwnershipType | undefined,
    currency: a.currency,
    defaultUmaDepositAccount: a.defaultUmaDepositAccount,
    // The stored info was validated member by member against these same names.
    accountInfo: { paymentRails: [], ...withPaymentRails(a.accountInfo) } as pb.ExternalAccount['accountInfo'],
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
  };
}
