import { CardSandboxServiceService, type CardMerchant } from '../../../../gen/quotes_transactions/v1/cards';
import { bindService } from '../../../../lib/grpc/service-binding';
import type { CardSandbox, SimulatedAuthorization } from '../app/card-sandbox';
import { callerOf, present } from '../../shared/grpc/payment-caller';

const merchantOf = (m: CardMerchant | undefined) =>
  m
  && {
    descriptor: m.descriptor,
    ...(present(m.mcc) ? { mcc: m.mcc } : {}),
    ...(present(m.country) ? { country: m.country } : {}),
  };

const authorization = (
  request: { amount: number; currencyCode: string; merchant?: CardMerchant },
): SimulatedAuthorization => ({
  amount: request.amount,
  currencyCode: request.currencyCode,
  merchant: merchantOf(request.merchant),
});

export function bindCardSandboxService(useCases: { sandbox: CardSandbox }) {
  const { sandbox } = useCases;
  const answer = async (token: Promise<string>) => ({ issuerTransactionToken: await token });
  return bindService(CardSandboxServiceService, {
    simulateCardAuthorization: (request, ctx) =>
      answer(sandbox.authorization(callerOf(ctx), request.cardId, authorization(request))),
    simulateCardCreditAuthorization: (request, ctx) =>
      answer(sandbox.creditAuthorization(callerOf(ctx), request.cardId, authorization(request))),
    simulateCardFinancialAuthorization: (request, ctx) =>
      answer(sandbox.financialAuthorization(callerOf(ctx), request.cardId, authorization(request))),
    simulateCardFinancialCreditAuthorization: (request, ctx) =>
      answer(sandbox.financialCreditAuthorization(callerOf(ctx), request.cardId, authorization(request))),
    simulateCardCreditAuthorizationAdvice: (request, ctx) =>
      answer(sandbox.creditAuthorizationAdvice(callerOf(ctx), request.cardId, authorization(request))),
    simulateCardBalanceInquiry: (request, ctx) =>
      answer(sandbox.balanceInquiry(callerOf(ctx), request.cardId, { merchant: merchantOf(request.merchant) })),
    simulateCardClearing: (request, ctx) => answer(sandbox.clearing(callerOf(ctx), request.cardId, request)),
    simulateCardReturn: (request, ctx) => answer(sandbox.return(callerOf(ctx), request.cardId, request)),
    simulateCardAuthorizationAdvice: (request, ctx) =>
      answer(sandbox.authorizationAdvice(callerOf(ctx), request.cardId, request)),
    simulateCardReturnReversal: (request, ctx) =>
      answer(sandbox.returnReversal(callerOf(ctx), request.cardId, request)),
  });
}
