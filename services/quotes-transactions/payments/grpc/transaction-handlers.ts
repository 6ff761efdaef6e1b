import { TransactionServiceService } from '../../../../gen/quotes_transactions/v1/transactions';
import { bindService } from '../../../../lib/grpc/service-binding';
import type { AgentApprovals } from '../../agents/app/agent-approvals';
import type { TransactionActions } from '../app/transaction-actions';
import type { TransactionEntries, TransactionEntry } from '../app/transaction-entries';
import type { TransactionQueries } from '../app/transactions-query';
import { toCardTransactionRecord } from '../../cards/domain/card-records';
import { toTransactionRecord } from '../domain/payment-records';
import { appliedPostings } from '../domain/payment-movements';
import { callerOf, present } from '../../shared/grpc/payment-caller';

/** A row of the transaction list, payment or card transaction. */
export const entryRecord = (
  e: TransactionEntry,
) => ('payment' in e
  ? { entry: { $case: 'transaction' as const, value: toTransactionRecord(e.payment) } }
  : { entry: { $case: 'cardTransaction' as const, value: toCardTransactionRecord(e.card) } });

export function bindTransactionService(
  useCases: {
    queries: TransactionQueries;
    entries: TransactionEntries;
    actions: TransactionActions;
    agentApprovals?: AgentApprovals;
  },
) {
  /** A transaction an agent's action waits on is decided as that action; any other by approve or reject. */
  const decide = async (
    caller: ReturnType<typeof callerOf>,
    id: string,
    approve: boolean,
    receiverCustomerInfo?: Record<string, unknown>,
  ) =>
    (await useCases.agentApprovals?.decideTransaction(caller, id, approve))
      ?? (approve ? useCases.actions.approve(caller, id, receiverCustomerInfo) : useCases.actions.reject(caller, id));
  const view = async (p: Promise<Parameters<typeof toTransactionRecord>[0]>) => ({
    transaction: toTransactionRecord(await p),
  });
  return bindService(TransactionServiceService, {
    async getTransaction(request, ctx) {
      const found = await useCases.entries.get(callerOf(ctx), request.transactionId);
      return 'payment' in found
        ? { transaction: toTransactionRecord(found.payment) }
        : { cardTransaction: toCardTransactionRecord(found.card) };
    },
    async listTransactions(request, ctx) {
      const page = await useCases.entries.list({
        caller: callerOf(ctx),
        customerId: present(request.customerId),
        platformCustomerId: present(request.platformCustomerId),
        accountIdentifier: present(request.accountIdentifier),
        senderAccountIdentifier: present(request.senderAccountIdentifier),
        receiverAccountIdentifier: present(request.receiverAccountIdentifier),
        status: present(request.status),
        type: present(request.type),
        reference: present(request.reference),
        startDate: present(request.startDate),
        endDate: present(request.endDate),
        limit: request.limit,
        cursor: present(request.cursor),
        sortOrder: present(request.sortOrder),
      });
      return {
        transactions: page.entries.flatMap((e) => ('payment' in e ? [toTransactionRecord(e.payment)] : [])),
        entries: page.entries.map(entryRecord),
        hasMore: page.hasMore,
        nextCursor: page.nextCursor,
        totalCount: page.totalCount,
      };
    },
    async listTransactionPostings(request, ctx) {
      const found = await useCases.entries.get(callerOf(ctx), request.transactionId);
      return { postings: 'payment' in found ? appliedPostings(found.payment) : [] };
    },
    approveTransaction: (request, ctx) =>
      view(decide(callerOf(ctx), request.transactionId, true, request.receiverCustomerInfo)),
    rejectTransaction: (request, ctx) => view(decide(callerOf(ctx), request.transactionId, false)),
    cancelTransaction: (request, ctx) => view(useCases.actions.cancel(callerOf(ctx), request.transactionId)),
    confirmReceiptDelivery: (request, ctx) =>
      view(
        useCases.actions.confirmReceiptDelivery(
          callerOf(ctx),
          request.transactionId,
          present(request.receiptDeliveryConfirmedAt),
        ),
      ),
  });
}
