import type {
  CurrencyAmount,
  ExternalAccount,
  InternalAccount,
  PaymentInstructions,
} from '../../gen/accounts/v1/accounts';
import type { OwnershipChallenge } from '../../gen/accounts/v1/external_account_requests';
import { withoutAbsent } from './json-members';

/** Money as integer minor units with its currency. */
function currencyAmountJson(a: CurrencyAmount | undefined) {
  if (!a?.currency) throw new Error('internal account without a currency');
  const { code, name, symbol, decimals } = a.currency;
  return { amount: a.amount, currency: { code, name, symbol, decimals } };
}

function paymentInstructionsJson(p: PaymentInstructions) {
  return withoutAbsent({
    instructionsNotes: p.instructionsNotes,
    isPlatformAccount: p.isPlatformAccount,
    accountOrWalletInfo: p.accountOrWalletInfo ?? {},
  });
}

/** The REST InternalAccount, member by member. */
export function internalAccountJson(a: InternalAccount) {
  return withoutAbsent({
    id: a.id,
    customerId: a.customerId,
    type: a.type,
    status: a.status,
    balance: currencyAmountJson(a.balance),
    totalBalance: currencyAmountJson(a.totalBalance),
    fundingPaymentInstructions: a.fundingPaymentInstructions.map(paymentInstructionsJson),
    privateEnabled: a.privateEnabled,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
  });
}

/** The REST ExternalAccount, member by member (the interface gives it no timestamps). */
export function externalAccountJson(a: ExternalAccount) {
  return withoutAbsent({
    id: a.id,
    customerId: a.customerId,
    status: a.status,
    platformAccountId: a.platformAccountId,
    ownershipType: a.ownershipType,
    currency: a.currency,
    defaultUmaDepositAccount: a.defaultUmaDepositAccount,
    beneficiaryVerificationStatus: a.beneficiaryVerificationStatus,
    // Wallets have no rails: the list is left out, as the reference's wallet kinds have none.
    accountInfo: {
      ...a.accountInfo,
      paymentRails: a.accountInfo?.paymentRails.length ? a.accountInfo.paymentRails : undefined,
    },
  });
}

/** The REST OwnershipChallenge: WalletSignatureChallenge or LivenessChallenge by `method`. */
export function ownershipChallengeJson(c: OwnershipChallenge) {
  return withoutAbsent({
    method: c.method,
    messageToSign: c.messageToSign,
    verificationLink: c.verificationLink,
    token: c.token,
    expiresAt: c.expiresAt,
  });
}
