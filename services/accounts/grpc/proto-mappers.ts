import * as pb from '../../../gen/accounts/v1/accounts';
import type { InternalAccountSummary } from '../../../gen/accounts/v1/payment_party_requests';
import type { Platform as PlatformMessage } from '../../../gen/accounts/v1/platforms';
import type { Platform } from '../app/accounts-store';
import { withPaymentRails } from '../domain/external-account-validation';
import { currencyInfo } from '../domain/currencies';
import type { Customer } from '../domain/customer';
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

/** Whether a customer's KYC/KYB status stops it from sending money. */
export function kycBlocksPayments(status: string, requireApproval: boolean): boolean {
  return requireApproval ? status !== 'APPROVED' : status === 'REJECTED' || status === 'HOLD';
}

/**
 * The message's members go by the domain's names; fromPartial keeps the message's own (the sealed
 * identifier, the revision and the provisioning steps stay out) and fills what is absent.
 */
export function customerMessage(c: Customer, terms: EndUserTermsCatalogue, requireApproval = false): pb.Customer {
  const status = c.verificationStatus as pb.Customer_VerificationStatus;
  const individual = c.customerType === 'INDIVIDUAL';
  const message = {
    ...c,
    acceptedTermsVersion: c.endUserTermsConsent?.termsVersion,
    acceptsCurrentTerms: acceptsCurrentTerms(terms, c.endUserTermsConsent),
    kycBlocksPayments: kycBlocksPayments(c.verificationStatus, requireApproval),
    kycStatus: individual ? status : undefined,
    kybStatus: individual ? undefined : status,
  };
  return pb.Customer.fromPartial(message as unknown as pb.Customer);
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
