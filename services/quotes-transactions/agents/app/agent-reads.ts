import { AppError } from '../../../../lib/errors';
import { decodePageCursor, nextPageCursor, pageLimit } from '../../../../lib/page-cursor';
import { requirePermission, touchesAllowedAccount, type ActingAgent } from '../domain/agent-policy';
import type { Payment } from '../../payments/domain/payment';
import type { Caller } from '../../shared/app/payment-accounts';
import type { TransactionEntries, TransactionEntry } from '../../payments/app/transaction-entries';
import type { ListTransactionsCommand } from '../../payments/app/transactions-query';
import type { AgentAction, AgentActionQuery, AgentActionStore, AgentActionStatus } from './agent-action-store';
import type { AgentRegistry } from './agent-approvals';

/** The accounts a payment moves money between (a UMA address or realtime funding is none). */
const accountsOf = (p: Payment) => [
  p.source.sourceType === 'ACCOUNT' ? p.source.accountId : undefined,
  p.destination.destinationType === 'ACCOUNT' ? p.destination.accountId : undefined,
];

const STATUSES: readonly AgentActionStatus[] = ['PENDING_APPROVAL', 'APPROVED', 'REJECTED', 'FAILED'];

export interface ActionPageRequest {
  agentId?: string;
  customerId?: string;
  status?: string;
  startDate?: string;
  endDate?: string;
  limit: number;
  cursor?: string;
  sortOrder?: string;
}

function query(r: ActionPageRequest): AgentActionQuery {
  if (r.status && !STATUSES.includes(r.status as AgentActionStatus)) {
    throw AppError.invalidInput('Invalid status', [{
      field: 'status',
      message: `must be one of ${STATUSES.join(', ')}`,
      constraint: { enum: [...STATUSES] },
    }]);
  }
  if (r.sortOrder && r.sortOrder !== 'asc' && r.sortOrder !== 'desc') {
    throw AppError.invalidInput('Invalid sortOrder', [{
      field: 'sortOrder',
      message: 'must be one of asc, desc',
      constraint: { enum: ['asc', 'desc'] },
    }]);
  }
  return {
    ...(r.agentId ? { agentId: r.agentId } : {}),
    ...(r.customerId ? { customerId: r.customerId } : {}),
    ...(r.status ? { status: r.status as AgentActionStatus } : {}),
    ...(r.startDate ? { startDate: r.startDate } : {}),
    ...(r.endDate ? { endDate: r.endDate } : {}),
    limit: pageLimit(r.limit),
    sortOrder: r.sortOrder === 'asc' ? 'asc' : 'desc',
    ...(r.cursor ? { after: decodePageCursor(r.cursor) } : {}),
  };
}

/** Reading what agents did: their actions, the platform's approval queue, the customer's transactions. */
export function createAgentReads(
  deps: { actions: AgentActionStore; entries: Pick<TransactionEntries, 'list' | 'get'>; agents: AgentRegistry },
) {
  async function page(caller: Caller, request: ActionPageRequest) {
    const found = await deps.actions.list(caller.platformId, query(request));
    return { ...found, nextCursor: nextPageCursor(found.actions, found.hasMore) };
  }

  const listActions = (caller: Caller, agent: ActingAgent, r: Omit<ActionPageRequest, 'agentId' | 'customerId'>) =>
    page(caller, { ...r, agentId: agent.agentId });
  /**
   * The approval queue leaves out what deleted agents asked for (approving it would reject it); the cursor still pages
   * past them.
   */
  async function listApprovals(caller: Caller, r: Omit<ActionPageRequest, 'status'>) {
    const found = await page(caller, { ...r, status: 'PENDING_APPROVAL' });
    const agentIds = [...new Set(found.actions.map((a) => a.agentId))];
    const exists = await Promise.all(agentIds.map((id) => deps.agents.exists(caller.platformId, id)));
    const deleted = new Set(agentIds.filter((_, i) => !exists[i]));
    const actions = found.actions.filter((a) => !deleted.has(a.agentId));
    return { ...found, actions, totalCount: found.totalCount - (found.actions.length - actions.length) };
  }

  async function getAction(caller: Caller, agent: ActingAgent, id: string): Promise<AgentAction> {
    const action = await deps.actions.get(caller.platformId, id);
    if (!action || action.agentId !== agent.agentId) {
      throw new AppError('REFERENCE_NOT_FOUND', `Agent action ${id} not found`);
    }
    return action;
  }

  /**
   * The customer's payments and card transactions (type CARD) touching the agent's allowed accounts, as GET
   * /transactions lists them.
   */
  function listTransactions(
    caller: Caller,
    agent: ActingAgent,
    filters: Omit<ListTransactionsCommand, 'caller' | 'customerId' | 'platformCustomerId'>,
  ) {
    requirePermission(agent, 'VIEW_TRANSACTIONS');
    const allowed = agent.policy.allowedAccountIds;
    return deps.entries.list({
      ...filters,
      caller,
      customerId: agent.customerId,
      ...(allowed ? { touchingAccountIds: allowed } : {}),
    });
  }

  /** One of the customer's payments or card transactions, as the list shows them. */
  async function getTransaction(caller: Caller, agent: ActingAgent, id: string): Promise<TransactionEntry> {
    requirePermission(agent, 'VIEW_TRANSACTIONS');
    // Another customer's transaction, or one outside the agent's allowed accounts, answers as a missing one.
    return deps.entries.get(caller, id, (found) => {
      const [customerId, accounts] = 'card' in found
        ? [found.card.customerId, [found.card.accountId]]
        : [found.payment.customerId, accountsOf(found.payment)];
      return customerId === agent.customerId && touchesAllowedAccount(agent, accounts);
    });
  }

  return { listActions, listApprovals, getAction, listTransactions, getTransaction };
}

export type AgentReads = ReturnType<typeof createAgentReads>;
