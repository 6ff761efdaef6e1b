import { CardSandboxServiceService } from '../../../gen/quotes_transactions/v1/cards';
import { bindService } from '../../../lib/grpc/service-binding';
import type { CardSandbox } from '../app/cards/card-sandbox';
import { callerOf, present } from './payment-caller';

export function bindCardSandboxService(useCases: { sandbox: CardSandbox }) {
  const { sandbox } = useCases;
  return bindService(CardSandboxServiceService, {
    async simulateCardAuthorization(request, ctx) {
      const m = request.merchant;
      const merchant = m && { descriptor: m.descriptor, ...(present(m.mcc) ? { mcc: m.mcc } : {}), ...(present(m.country) ? { country: m.country } : {}) };
      return { issuerTransactionToken: await sandbox.authorization(callerOf(ctx), request.cardId, { amount: request.amount, currencyCode: request.currencyCode, merchant }) };
    },
    async simulateCardClearing(request, ctx) {
      return { issuerTransactionToken: await sandbox.clearing(callerOf(ctx), request.cardId, request) };
    },
    async simulateCardReturn(request, ctx) {
      return { issuerTransactionToken: await sandbox.return(callerOf(ctx), request.cardId, request) };
    },
  });
}
