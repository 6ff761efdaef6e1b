import {
  AgentPolicy_ExecutionMode,
  AgentPolicy_Permission,
  type Agent,
  type AgentPolicy as AgentPolicyMessage,
  type AgentPolicyInput,
  type NullableAmount,
} from '../../../gen/auth/v1/agents';
import type { AgentRecord } from '../app/agents/agent-store';
import type { AgentPolicy, PolicyInput } from '../domain/agents/agent-policy';

/* Agents and policies between their records and the messages of auth.v1.AgentService. */

const nullable = (n: NullableAmount | undefined) => (n === undefined ? undefined : n.value ?? null);
const orAbsent = (n: number | null | undefined) => (n === null || n === undefined ? undefined : n);

export function policyInputOf(m: AgentPolicyInput | undefined): PolicyInput | undefined {
  if (!m) return undefined;
  const limits = m.spendingLimits;
  const restrictions = m.accountRestrictions;
  const thresholds = m.approvalThresholds;
  return {
    ...(m.permissionsGiven ? { permissions: m.permissions } : {}),
    ...(m.defaultExecutionMode !== undefined ? { defaultExecutionMode: m.defaultExecutionMode } : {}),
    ...(limits
      ? {
        spendingLimits: {
          currency: limits.currency,
          perTransactionLimit: limits.perTransactionLimit,
          dailyTransactionLimit: limits.dailyTransactionLimit,
          dailyLimit: nullable(limits.dailyLimit),
          monthlyLimit: nullable(limits.monthlyLimit),
        },
      }
      : {}),
    ...(restrictions
      ? {
        accountRestrictions: {
          allowedAccountIds: restrictions.allowedAccountIds ? restrictions.allowedAccountIds.ids : null,
          accountRules: restrictions.accountRules.map((r) => ({
            accountId: r.accountId,
            executionMode: r.executionMode,
            perTransactionLimit: nullable(r.perTransactionLimit),
          })),
        },
      }
      : {}),
    ...(thresholds
      ? { approvalThresholds: { currency: thresholds.currency, amount: nullable(thresholds.amount) } }
      : {}),
  };
}

export function policyMessage(p: AgentPolicy): AgentPolicyMessage {
  const limits = p.spendingLimits;
  return {
    permissions: p.permissions.map((x) => AgentPolicy_Permission[x]),
    defaultExecutionMode: AgentPolicy_ExecutionMode[p.defaultExecutionMode],
    spendingLimits: {
      currency: limits.currency,
      perTransactionLimit: limits.perTransactionLimit,
      dailyLimit: orAbsent(limits.dailyLimit),
      dailyTransactionLimit: limits.dailyTransactionLimit,
      monthlyLimit: orAbsent(limits.monthlyLimit),
    },
    accountRestrictions: p.accountRestrictions && {
      allowedAccountIds: p.accountRestrictions.allowedAccountIds
        ? { ids: p.accountRestrictions.allowedAccountIds }
        : undefined,
      accountRules: p.accountRestrictions.accountRules.map((r) => ({
        accountId: r.accountId,
        executionMode: r.executionMode && AgentPolicy_ExecutionMode[r.executionMode],
        perTransactionLimit: orAbsent(r.perTransactionLimit),
      })),
    },
    approvalThresholds: p.approvalThresholds
      && { currency: p.approvalThresholds.currency, amount: orAbsent(p.approvalThresholds.amount) },
  };
}

export function agentMessage(a: AgentRecord): Agent {
  return {
    id: a.id,
    name: a.name,
    customerId: a.customerId,
    isPaused: a.isPaused,
    isConnected: a.isConnected,
    policy: policyMessage(a.policy),
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
    platformId: a.platformId,
  };
}
