import { PaymentsSandboxServiceService } from '../../../../gen/quotes_transactions/v1/payments_sandbox';
import { bindService } from '../../../../lib/grpc/service-binding';
import type { SandboxPayments } from '../app/sandbox-payments';
import { toTransactionRecord } from '../domain/payment-records';
import { callerOf } from '../../shared/grpc/payment-caller';

export function bindPaymentsSandboxService(useCases: { sandbox: SandboxPayments }) {
  return bindService(PaymentsSandboxServiceService, {
    async fundInternalAccount(request, ctx) {
      return useCases.sandbox.fundInternalAccount(callerOf(ctx), request.accountId, { amount: request.amount });
    },
    async simulateSend(request, ctx) {
      return { transaction: toTransactionRecord(await useCases.sandbox.simulateSend(callerOf(ctx), request)) };
    },
    async simulateUmaReceive(request, ctx) {
      return { transaction: toTransactionRecord(await useCases.sandbox.simulateUmaReceive(callerOf(ctx), request)) };
    },
  });
}
