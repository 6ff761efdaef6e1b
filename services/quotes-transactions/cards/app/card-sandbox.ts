import { AppError } from '../../../../lib/errors';
import { MAX_AMOUNT } from '../../../../lib/contract/amount-bounds';
import { MAX_SANDBOX_FUNDING } from '../../shared/domain/money';
import {
  isCreditKind,
  type CardAuthorizationKind,
  type CardDeclineReason,
  type CardMerchant,
} from '../domain/card-transaction';
import type { Caller } from '../../shared/app/payment-accounts';
import type { AuthorizationDecision, CardAuthorizations } from './card-authorizations';

/** The reference's sandbox outcomes, by the last three characters of the merchant descriptor. */
const DECLINE_SUFFIXES: Record<string, CardDeclineReason> = { '002': 'INSUFFICIENT_FUNDS', '003': 'CARD_PAUSED' };
/** 005: the pull is confirmed only after a delay (pullSummary.pendingCount 1 until then). */
const DELAYED_PULL = '005';
/** 006: the pull is approved, then its confirmation reports FAILED (EXCEPTION). */
const FAILED_CONFIRMATION = '006';

export interface SimulatedAuthorization {
  amount: number;
  currencyCode: string;
  merchant?: CardMerchant;
}

const token = (decision: AuthorizationDecision) =>
  decision.approved
    ? decision.transaction.issuerTransactionToken
    : decision.transactionId.slice('CardTransaction:'.length);

/**
 * The sandbox card simulations: each drives the decisioning and reconciliation the issuer would
 * call, and answers the issuer transaction token; the outcome arrives as CARD_TRANSACTION.* webhooks.
 */
export function createCardSandbox(
  deps: { enabled: boolean; authorizations: CardAuthorizations; clock?: () => Date; pullConfirmDelayMs?: number },
) {
  const clock = deps.clock ?? (() => new Date());
  const allowed = () => {
    if (!deps.enabled) throw new AppError('FORBIDDEN', 'Sandbox operations are not available on this platform');
  };
  const positive = (amount: number, zeroAllowed = false) => {
    if (!Number.isSafeInteger(amount) || amount < 0 || (!zeroAllowed && amount === 0)) {
      throw AppError.invalidInput('Invalid simulation', [{
        field: 'amount',
        message: zeroAllowed ? 'must be an integer ≥ 0 in minor units' : 'must be a positive integer in minor units',
      }]);
    }
    if (amount > MAX_AMOUNT) throw new AppError('INVALID_AMOUNT', `amount must be at most ${MAX_AMOUNT} (minor units)`);
  };
  const merchantOf = (merchant: CardMerchant | undefined): CardMerchant => {
    if (!merchant?.descriptor) {
      throw AppError.invalidInput('Invalid simulation', [{ field: 'merchant.descriptor', message: 'is required' }]);
    }
    return merchant;
  };

  /**
   * An authorization-family event with the reference's descriptor suffixes (002/003 decline; 005/006 on a debit's
   * pull).
   */
  async function authorizationOf(
    kind: CardAuthorizationKind,
    caller: Caller,
    cardId: string,
    input: SimulatedAuthorization,
  ) {
    allowed();
    const merchant = merchantOf(input.merchant);
    positive(input.amount);
    // A simulated credit brings money in, as sandbox funding does, and within the same maximum.
    if (isCreditKind(kind) && input.amount > MAX_SANDBOX_FUNDING) {
      const most =
        `amount must be an integer between 1 and ${MAX_SANDBOX_FUNDING} (minor units) for a simulated credit`;
      throw new AppError('INVALID_AMOUNT', most);
    }
    const suffix = merchant.descriptor.slice(-3);
    const declinedByIssuer = DECLINE_SUFFIXES[suffix];
    const delayed = suffix === DELAYED_PULL && (kind === 'AUTHORIZATION' || kind === 'FINANCIAL_AUTHORIZATION');
    const decision = await deps.authorizations.authorize(caller, cardId, {
      kind,
      amount: input.amount,
      currency: input.currencyCode,
      merchant,
      ...(declinedByIssuer ? { declinedByIssuer } : {}),
      ...(delayed
        ? { pullConfirmAt: new Date(clock().getTime() + (deps.pullConfirmDelayMs ?? 30_000)).toISOString() }
        : {}),
    });
    if (decision.approved && suffix === FAILED_CONFIRMATION && kind === 'AUTHORIZATION') {
      await deps.authorizations.confirmPull(caller, cardId, decision.transaction.id, 'FAILED');
    }
    return token(decision);
  }

  return {
    authorization: (caller: Caller, cardId: string, input: SimulatedAuthorization) =>
      authorizationOf('AUTHORIZATION', caller, cardId, input),
    creditAuthorization: (caller: Caller, cardId: string, input: SimulatedAuthorization) =>
      authorizationOf('CREDIT_AUTHORIZATION', caller, cardId, input),
    financialAuthorization: (caller: Caller, cardId: string, input: SimulatedAuthorization) =>
      authorizationOf('FINANCIAL_AUTHORIZATION', caller, cardId, input),
    financialCreditAuthorization: (caller: Caller, cardId: string, input: SimulatedAuthorization) =>
      authorizationOf('FINANCIAL_CREDIT_AUTHORIZATION', caller, cardId, input),
    creditAuthorizationAdvice: (caller: Caller, cardId: string, input: SimulatedAuthorization) =>
      authorizationOf('CREDIT_AUTHORIZATION_ADVICE', caller, cardId, input),
    async balanceInquiry(caller: Caller, cardId: string, input: { merchant?: CardMerchant }) {
      allowed();
      return token(
        await deps.authorizations.authorize(caller, cardId, {
          kind: 'BALANCE_INQUIRY',
          amount: 0,
          merchant: merchantOf(input.merchant),
        }),
      );
    },
    async clearing(caller: Caller, cardId: string, input: { cardTransactionId: string; amount: number }) {
      allowed();
      positive(input.amount, true);
      return (await deps.authorizations.clear(caller, cardId, input.cardTransactionId, input.amount))
        .issuerTransactionToken;
    },
    async return(caller: Caller, cardId: string, input: { cardTransactionId: string; amount: number }) {
      allowed();
      positive(input.amount);
      return (await deps.authorizations.refund(caller, cardId, input.cardTransactionId, input.amount))
        .issuerTransactionToken;
    },
    async authorizationAdvice(caller: Caller, cardId: string, input: { cardTransactionId: string; amount: number }) {
      allowed();
      positive(input.amount);
      return (await deps.authorizations.advise(caller, cardId, input.cardTransactionId, input.amount))
        .issuerTransactionToken;
    },
    async returnReversal(caller: Caller, cardId: string, input: { cardTransactionId: string }) {
      allowed();
      return (await deps.authorizations.reverseReturn(caller, cardId, input.cardTransactionId)).issuerTransactionToken;
    },
  };
}

export type CardSandbox = ReturnType<typeof createCardSandbox>;
