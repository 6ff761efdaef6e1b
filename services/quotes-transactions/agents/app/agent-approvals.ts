import { AppError } from '../../../../lib/errors';
import type { Payment } from '../../payments/domain/payment';
import type { Caller } from '../../shared/app/payment-accounts';
import type { AgentActionRunner } from './agent-action-runner';
import type { AgentAction, AgentActionStore } from './agent-action-store';
import type { AgentUsage } from './agent-usage';

const notFound = (id: string) => new AppError('REFERENCE_NOT_FOUND', `Agent action ${id} not found`);
const notPending = (a: AgentAction) =>
  new AppError('CONFLICT', `Agent action ${a.id} is ${a.status}, not PENDING_APPROVAL`, { status: a.status });
const AGENT_DELETED = 'The agent was deleted before its action was approved';

/** Whether an agent still exists (auth owns agents). */
export interface AgentRegistry {
  exists(platformId: string, agentId: string): Promise<boolean>;
}

/**
 * The platform's decisions on actions waiting for approval. Deciding is one conditional write
 * from PENDING_APPROVAL, so of concurrent approvals and rejections exactly one wins; an approval
 * then executes the payment once (the action id is its idempotency key), and a payment that cannot
 * be made (an expired quote, a balance that no longer covers it) leaves the action FAILED. Deleting
 * an agent revokes what it asked for: approving an action of a deleted agent rejects it instead.
 */
export function createAgentApprovals(
  deps: {
    actions: AgentActionStore;
    usage: AgentUsage;
    runner: AgentActionRunner;
    agents: AgentRegistry;
    clock: () => Date;
  },
) {
  async function pending(caller: Caller, agentId: string | undefined, actionId: string): Promise<AgentAction> {
    const action = await deps.actions.get(caller.platformId, actionId);
    if (!action || (agentId !== undefined && action.agentId !== agentId)) throw notFound(actionId);
    return action;
  }

  async function decide(caller: Caller, action: AgentAction, set: Partial<AgentAction>): Promise<AgentAction> {
    const unset: Array<keyof AgentAction> = set.status === 'REJECTED' ? ['quoteClaim'] : [];
    const decided = await deps.actions.transition({
      platformId: caller.platformId,
      id: action.id,
      from: 'PENDING_APPROVAL',
      set: { ...set, updatedAt: deps.clock().toISOString() },
      unset,
    });
    if (decided) return decided;
    throw notPending((await deps.actions.get(caller.platformId, action.id)) ?? action);
  }

  async function approve(caller: Caller, agentId: string | undefined, actionId: string) {
    const action = await pending(caller, agentId, actionId);
    if (!(await deps.agents.exists(caller.platformId, action.agentId))) {
      const rejected = await reject(caller, agentId, actionId, AGENT_DELETED);
      throw new AppError('CONFLICT', `Agent ${action.agentId} was deleted: its action ${actionId} is now REJECTED`, {
        status: rejected.status,
      });
    }
    const approved = await decide(caller, action, { status: 'APPROVED', executing: true });
    return deps.runner.execute(caller, approved);
  }

  async function reject(
    caller: Caller,
    agentId: string | undefined,
    actionId: string,
    reason?: string,
  ): Promise<AgentAction> {
    const action = await pending(caller, agentId, actionId);
    const rejected = await decide(caller, action, {
      status: 'REJECTED',
      ...(reason ? { rejectionReason: reason } : {}),
    });
    await deps.usage.release(rejected.id);
    return rejected;
  }

  /**
   * POST /transactions/{id}/approve and /reject on the transaction of a quote an agent submitted:
   * undefined when no action waits on that transaction.
   */
  async function decideTransaction(
    caller: Caller,
    paymentId: string,
    approveIt: boolean,
  ): Promise<Payment | undefined> {
    const quoteId = (await deps.runner.payment(caller.platformId, paymentId))?.quote?.id;
    const action = quoteId ? await deps.actions.pendingForQuote(caller.platformId, quoteId) : null;
    if (!action) return undefined;
    if (!approveIt) {
      await reject(caller, undefined, action.id);
    } else {
      const { error } = await approve(caller, undefined, action.id);
      if (error) throw error;
    }
    return (await deps.runner.paymentOf(action)) ?? undefined;
  }

  /**
   * Finishes approvals a crash interrupted between the decision and the payment: performing again
   * is safe, since the action id is the payment's idempotency key (the same quote execution or
   * transfer answers, never a second one).
   */
  async function finishInterrupted(olderThanMs: number): Promise<number> {
    const before = new Date(deps.clock().getTime() - olderThanMs).toISOString();
    const stuck = await deps.actions.interruptedExecutions(before, 100);
    for (const action of stuck) await deps.runner.execute({ platformId: action.platformId }, action);
    return stuck.length;
  }

  return {
    finishInterrupted,
    approve: async (caller: Caller, agentId: string, id: string) => (await approve(caller, agentId, id)).action,
    reject,
    decideTransaction,
  };
}

export type AgentApprovals = ReturnType<typeof createAgentApprovals>;
