import { AgentActionServiceService } from '../../../../gen/quotes_transactions/v1/agent_actions';
import { bindService } from '../../../../lib/grpc/service-binding';
import type { AgentActionRunner } from '../app/agent-action-runner';
import type { AgentAction } from '../app/agent-action-store';
import type { AgentApprovals } from '../app/agent-approvals';
import type { AgentPayments, Submitted } from '../app/agent-payments';
import type { AgentReads } from '../app/agent-reads';
import type { AgentUsage } from '../app/agent-usage';
import { toCardTransactionRecord } from '../../cards/domain/card-records';
import { toQuoteRecord, toTransactionRecord } from '../../payments/domain/payment-records';
import { actingAgentOf } from './agent-context';
import { callerOf, present } from '../../shared/grpc/payment-caller';
import { entryRecord } from '../../payments/grpc/transaction-handlers';

export function bindAgentActionService(
  useCases: {
    payments: AgentPayments;
    approvals: AgentApprovals;
    reads: AgentReads;
    usage: AgentUsage;
    runner: AgentActionRunner;
  },
) {
  const { payments, approvals, reads, runner } = useCases;
  const one = async (a: Promise<AgentAction>) => ({ action: await runner.record(await a) });
  const submitted = async (s: Promise<Submitted>) => {
    const { action, payment } = await s;
    return { action: await runner.record(action, payment) };
  };
  const many = async (page: { actions: AgentAction[]; hasMore: boolean; totalCount: number; nextCursor?: string }) => ({
    actions: await Promise.all(page.actions.map((a) => runner.record(a))),
    hasMore: page.hasMore,
    nextCursor: page.nextCursor,
    totalCount: page.totalCount,
  });

  return bindService(AgentActionServiceService, {
    async createAgentQuote(request, ctx) {
      const { idempotencyKey, ...body } = request.quote ?? {};
      const p = await payments.createQuote(
        callerOf(ctx),
        actingAgentOf(request.agent),
        body as Record<string, unknown>,
        present(idempotencyKey),
      );
      return { quote: toQuoteRecord(p) };
    },
    async getAgentQuote(request, ctx) {
      return {
        quote: toQuoteRecord(await payments.getQuote(callerOf(ctx), actingAgentOf(request.agent), request.quoteId)),
      };
    },
    executeAgentQuote: (request, ctx) =>
      submitted(
        payments.executeQuote(
          callerOf(ctx),
          actingAgentOf(request.agent),
          request.quoteId,
          present(request.idempotencyKey),
        ),
      ),
    createAgentTransfer(request, ctx) {
      const { idempotencyKey, ...body } = request.transfer ?? {};
      const direction = request.direction === 'IN' ? 'IN' : 'OUT';
      const caller = callerOf(ctx);
      const agent = actingAgentOf(request.agent);
      return submitted(payments.transfer({ caller, agent, direction, body, idempotencyKey: present(idempotencyKey) }));
    },
    async listAgentActions(request, ctx) {
      return many(
        await reads.listActions(callerOf(ctx), actingAgentOf(request.agent), {
          status: present(request.status),
          limit: request.limit,
          cursor: present(request.cursor),
        }),
      );
    },
    getAgentAction: (request, ctx) =>
      one(reads.getAction(callerOf(ctx), actingAgentOf(request.agent), request.actionId)),
    async listAgentTransactions(request, ctx) {
      const f = request.filters ?? { limit: 0 };
      const page = await reads.listTransactions(callerOf(ctx), actingAgentOf(request.agent), {
        accountIdentifier: present(f.accountIdentifier),
        senderAccountIdentifier: present(f.senderAccountIdentifier),
        receiverAccountIdentifier: present(f.receiverAccountIdentifier),
        status: present(f.status),
        type: present(f.type),
        reference: present(f.reference),
        startDate: present(f.startDate),
        endDate: present(f.endDate),
        limit: f.limit,
        cursor: present(f.cursor),
        sortOrder: present(f.sortOrder),
      });
      return {
        transactions: page.entries.flatMap((e) => ('payment' in e ? [toTransactionRecord(e.payment)] : [])),
        entries: page.entries.map(entryRecord),
        hasMore: page.hasMore,
        nextCursor: page.nextCursor,
        totalCount: page.totalCount,
      };
    },
    async getAgentTransaction(request, ctx) {
      const found = await reads.getTransaction(callerOf(ctx), actingAgentOf(request.agent), request.transactionId);
      return 'payment' in found
        ? { transaction: toTransactionRecord(found.payment) }
        : { cardTransaction: toCardTransactionRecord(found.card) };
    },
    async getAgentUsage(request) {
      return { usage: await useCases.usage.current(actingAgentOf(request.agent).agentId) };
    },
    async listAgentApprovals(request, ctx) {
      return many(
        await reads.listApprovals(callerOf(ctx), {
          agentId: present(request.agentId),
          customerId: present(request.customerId),
          startDate: present(request.startDate),
          endDate: present(request.endDate),
          limit: request.limit,
          cursor: present(request.cursor),
          sortOrder: present(request.sortOrder),
        }),
      );
    },
    approveAgentAction: (request, ctx) => one(approvals.approve(callerOf(ctx), request.agentId, request.actionId)),
    rejectAgentAction: (request, ctx) =>
      one(approvals.reject(callerOf(ctx), request.agentId, request.actionId, present(request.reason))),
  });
}
