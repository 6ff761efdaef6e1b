import type { Agent, AgentPolicy } from '../../gen/auth/v1/agents';
import type { AgentUsage } from '../../gen/quotes_transactions/v1/agent_actions';
import { withoutAbsent } from './rest-request';

/* Agents and policies → REST JSON, in one place. Limits removed are sent as null, as the reference does. */

export function policyJson(p: AgentPolicy) {
  const limits = p.spendingLimits!;
  return withoutAbsent({
    permissions: p.permissions,
    defaultExecutionMode: p.defaultExecutionMode,
    spendingLimits: withoutAbsent({
      currency: limits.currency,
      perTransactionLimit: limits.perTransactionLimit,
      dailyLimit: limits.dailyLimit ?? null,
      dailyTransactionLimit: limits.dailyTransactionLimit,
      monthlyLimit: limits.monthlyLimit ?? null,
    }),
    accountRestrictions: p.accountRestrictions && {
      allowedAccountIds: p.accountRestrictions.allowedAccountIds?.ids ?? null,
      accountRules: p.accountRestrictions.accountRules.map((r) =>
        withoutAbsent({
          accountId: r.accountId,
          executionMode: r.executionMode,
          perTransactionLimit: r.perTransactionLimit ?? null,
        })
      ),
    },
    approvalThresholds: p.approvalThresholds
      && withoutAbsent({ currency: p.approvalThresholds.currency, amount: p.approvalThresholds.amount ?? null }),
  });
}

export function agentJson(a: Agent, usage: AgentUsage) {
  return {
    id: a.id,
    name: a.name,
    customerId: a.customerId,
    isPaused: a.isPaused,
    isConnected: a.isConnected,
    policy: policyJson(a.policy!),
    usage,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
  };
}
