import type { AgentContext } from '../../../../gen/quotes_transactions/v1/agent_actions';
import { AppError } from '../../../../lib/errors';
import type { ActingAgent, AgentPermission, ExecutionMode } from '../domain/agent-policy';

const mode = (
  m: string | undefined,
): ExecutionMode | undefined => (m === 'AUTO' || m === 'APPROVAL_REQUIRED' ? m : undefined);

/** The authenticated agent the gateway forwards (from auth.v1.AgentService.AuthenticateAgent). */
export function actingAgentOf(context: AgentContext | undefined): ActingAgent {
  const policy = context?.policy;
  if (!context?.agentId || !context.customerId || !policy?.spendingLimits) {
    throw new AppError('UNAUTHORIZED', 'No authenticated agent on the call');
  }
  const limits = policy.spendingLimits;
  const restrictions = policy.accountRestrictions;
  return {
    agentId: context.agentId,
    customerId: context.customerId,
    policy: {
      permissions: policy.permissions as string[] as AgentPermission[],
      defaultExecutionMode: mode(policy.defaultExecutionMode) ?? 'AUTO',
      spendingLimits: {
        currency: limits.currency,
        perTransactionLimit: limits.perTransactionLimit,
        ...(limits.dailyLimit !== undefined ? { dailyLimit: limits.dailyLimit } : {}),
        ...(limits.dailyTransactionLimit !== undefined ? { dailyTransactionLimit: limits.dailyTransactionLimit } : {}),
        ...(limits.monthlyLimit !== undefined ? { monthlyLimit: limits.monthlyLimit } : {}),
      },
      ...(restrictions?.allowedAccountIds ? { allowedAccountIds: restrictions.allowedAccountIds.ids } : {}),
      accountRules: (restrictions?.accountRules ?? []).map((r) => ({
        accountId: r.accountId,
        ...(mode(r.executionMode) ? { executionMode: mode(r.executionMode) } : {}),
        ...(r.perTransactionLimit !== undefined ? { perTransactionLimit: r.perTransactionLimit } : {}),
      })),
      ...(policy.approvalThresholds
        ? {
          approvalThresholds: {
            currency: policy.approvalThresholds.currency,
            amount: policy.approvalThresholds.amount,
          },
        }
        : {}),
    },
  };
}
