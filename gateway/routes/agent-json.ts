import type { Agent, AgentPolicy } from '../../gen/auth/v1/agents';
import type { AgentUsage } from '../../gen/quotes_transactions/v1/agent_actions';
import { contractJson } from '../../lib/contract/contract-json';
import * as contract from '../contract/agent-contract';

/*
 * Agents and policies → REST JSON. A limit the message leaves out (removed, or inherited) is the reference's
 * explicit null.
 */

export function policyJson(p: AgentPolicy) {
  const restrictions = p.accountRestrictions;
  const thresholds = p.approvalThresholds;
  const limits = contract.AgentPolicy.properties.spendingLimits;
  return {
    ...contractJson(contract.AgentPolicy, p),
    spendingLimits: contractJson(limits, p.spendingLimits!, { nullWhenAbsent: ['dailyLimit', 'monthlyLimit'] }),
    ...(restrictions && {
      accountRestrictions: {
        // The proto wraps the list in a message (absent: every account); REST has the list itself, or null.
        allowedAccountIds: restrictions.allowedAccountIds?.ids ?? null,
        // Written even when empty.
        accountRules: restrictions.accountRules.map((r) =>
          contractJson(contract.AgentAccountRule, r, { nullWhenAbsent: ['perTransactionLimit'] })
        ),
      },
    }),
    ...(thresholds && {
      approvalThresholds: contractJson(contract.AgentApprovalThresholds, thresholds, { nullWhenAbsent: ['amount'] }),
    }),
  };
}

/** The REST Agent, with its usage (from the payments service) and its policy as policyJson writes it. */
export function agentJson(a: Agent, usage: AgentUsage) {
  return { ...contractJson(contract.Agent, { ...a, usage }), policy: policyJson(a.policy!) };
}
