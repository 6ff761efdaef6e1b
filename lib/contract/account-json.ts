import type { Static } from '@sinclair/typebox';
import type { ExternalAccount, InternalAccount } from '../../gen/accounts/v1/accounts';
import * as records from './account-records';
import { contractJson } from './contract-json';

/** The REST InternalAccount. */
export function internalAccountJson(a: InternalAccount): Static<typeof records.InternalAccount> {
  // contractJson would write a balance without its currency: refuse the broken record instead.
  if (!a.balance?.currency || !a.totalBalance?.currency) throw new Error('internal account without a currency');
  return contractJson(records.InternalAccount, {
    ...a,
    fundingPaymentInstructions: a.fundingPaymentInstructions.map((p) => ({
      ...p,
      accountOrWalletInfo: p.accountOrWalletInfo ?? {}, // required by REST; the message may leave it out
    })),
  }) as Static<typeof records.InternalAccount>;
}

/** The REST ExternalAccount (the interface gives it no timestamps). */
export function externalAccountJson(a: ExternalAccount) {
  return {
    ...contractJson(records.ExternalAccount, a),
    // The accountInfo union is written whole (contractJson would keep only its tag), but for one member: wallets
    // have no rails, and the list is left out, as the reference's wallet kinds have none.
    accountInfo: {
      ...a.accountInfo,
      paymentRails: a.accountInfo?.paymentRails.length ? a.accountInfo.paymentRails : undefined,
    },
  };
}
