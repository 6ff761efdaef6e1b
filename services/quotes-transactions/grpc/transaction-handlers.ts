import { TransactionServiceService } from '../../../gen/quotes_transactions/v1/transactions';
import { bindService } from '../../../lib/grpc/service-binding';
import type { TransactionActions } from '../app/transaction-actions';
import type { TransactionQueries } from '../app/transactions-query';
import { toTransactionRecord } from '../domain/payment-records';
import { callerOf, present } from './payment-caller';

export function bindTransactionService(useCases: { queries: TransactionQueries; actions: TransactionActions }) {
  const view = async (p: Promise<Parameters<typeof toTransactionRecord>[0]>) => ({ transaction: toTransactionRecord(await p) });
  return bindService(TransactionServiceService, {
    getTransaction: (request, ctx) => view(useCases.queries.getTransaction(callerOf(ctx), request.transactionId)),
    async listTransactions(request, ctx) {
      const page = await useCases.queries.listTransactions({
        caller: callerOf(ctx),
        customerId: present(request.customerId), platformCustomerId: present(request.platformCustomerId),
        accountIdentifier: present(request.accountIdentifier), senderAccountIdentifier: present(request.senderAccountIdentifier),
        receiverAccountIdentifier: present(request.receiverAccountIdentifier), status: present(request.status), type: present(request.type),
        reference: present(request.reference), startDate: present(request.startDate), endDate: present(request.endDate),
        limit: request.limit, cursor: present(request.cursor), sortOrder: present(request.sortOrder),
      });
      return { transactions: page.payments.map(toTransactionRecord), hasMore: page.hasMore, nextCursor: page.nextCursor, totalCount: page.totalCount };
    },
    approveTransaction: (request, ctx) => view(useCases.actions.approve(callerOf(ctx), request.transactionId)),
    rejectTransaction: (request, ctx) => view(useCases.actions.reject(callerOf(ctx), request.transactionId)),
    cancelTransaction: (request, ctx) => view(useCases.actions.cancel(callerOf(ctx), request.transactionId)),
    confirmReceiptDelivery: (request, ctx) =>
      view(useCases.actions.confirmReceiptDelivery(callerOf(ctx), request.transactionId, present(request.receiptDeliveryConfirmedAt))),
  });
}
