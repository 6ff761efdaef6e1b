import { PaymentsSandboxServiceService } from '../../../gen/quotes_transactions/v1/payments_sandbox';
import { bindService } from '../../../lib/grpc/service-binding';
import type { SandboxPayments } from '../app/sandbox-payments';
import { toTransactionView } from '../domain/payment-views';
import { callerOf } from './payment-caller';

export function bindPaymentsSandboxService(useCases: { sandbox: SandboxPayments }) {
  return bindService(PaymentsSandboxServiceService, {
    async fundInternalAccount(request, ctx) {
      return useCases.sandbox.fundInternalAccount(callerOf(ctx), request.accountId, request.body ?? {});
    },
    async simulateSend(request, ctx) {
      return { transaction: toTransactionView(await useCases.sandbox.simulateSend(callerOf(ctx), request.body ?? {})) };
    },
    async simulateUmaReceive(request, ctx) {
      return { transaction: toTransactionView(await useCases.sandbox.simulateUmaReceive(callerOf(ctx), request.body ?? {})) };
    },
  });
}
