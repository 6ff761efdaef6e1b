import { AppError } from '../../../../lib/errors';
import type { CardDeclineReason, CardMerchant } from '../../domain/card-transaction';
import type { Caller } from '../payment-accounts';
import type { CardAuthorizations } from './card-authorizations';

/** The reference's sandbox outcomes, by the last three characters of the merchant descriptor. */
const DECLINE_SUFFIXES: Record<string, CardDeclineReason> = { '002': 'INSUFFICIENT_FUNDS', '003': 'CARD_PAUSED' };

/**
 * The sandbox card simulations: each drives the decisioning and reconciliation the issuer would
 * call, and answers the issuer transaction token; the outcome arrives as CARD_TRANSACTION.* webhooks.
 */
export function createCardSandbox(deps: { enabled: boolean; authorizations: CardAuthorizations }) {
  const allowed = () => {
    if (!deps.enabled) throw new AppError('FORBIDDEN', 'Sandbox operations are not available on this platform');
  };
  const positive = (amount: number, zeroAllowed = false) => {
    if (!Number.isSafeInteger(amount) || amount < 0 || (!zeroAllowed && amount === 0)) {
      throw AppError.invalidInput('Invalid simulation', [{ field: 'amount', message: zeroAllowed ? 'must be an integer ≥ 0 in minor units' : 'must be a positive integer in minor units' }]);
    }
  };
  return {
    async authorization(caller: Caller, cardId: string, input: { amount: number; currencyCode: string; merchant?: CardMerchant }) {
      allowed();
      if (!input.merchant?.descriptor) throw AppError.invalidInput('Invalid simulation', [{ field: 'merchant.descriptor', message: 'is required' }]);
      positive(input.amount);
      const declinedByIssuer = DECLINE_SUFFIXES[input.merchant.descriptor.slice(-3)];
      const decision = await deps.authorizations.authorize(caller, cardId, {
        amount: input.amount, currency: input.currencyCode, merchant: input.merchant, ...(declinedByIssuer ? { declinedByIssuer } : {}),
      });
      return decision.approved ? decision.transaction.issuerTransactionToken : decision.transactionId.slice('CardTransaction:'.length);
    },
    async clearing(caller: Caller, cardId: string, input: { cardTransactionId: string; amount: number }) {
      allowed();
      positive(input.amount, true);
      return (await deps.authorizations.clear(caller, cardId, input.cardTransactionId, input.amount)).issuerTransactionToken;
    },
    async return(caller: Caller, cardId: string, input: { cardTransactionId: string; amount: number }) {
      allowed();
      positive(input.amount);
      return (await deps.authorizations.refund(caller, cardId, input.cardTransactionId, input.amount)).issuerTransactionToken;
    },
  };
}

export type CardSandbox = ReturnType<typeof createCardSandbox>;
