import type {
  AgentAccountRestrictionsInput,
  AgentPolicyInput,
  CreateAgentRequest,
  UpdateAgentRequest,
} from '../../gen/auth/v1/agents';
import { RestBody } from './rest-body';

/* REST bodies of the agent management routes → their request messages. */

function restrictions(b: RestBody): AgentAccountRestrictionsInput {
  const allowed = b.stringList('allowedAccountIds');
  return {
    allowedAccountIds: allowed && { ids: allowed.values },
    accountRules: b.objectList('accountRules', (r) => ({
      accountId: r.string('accountId'),
      executionMode: r.string('executionMode'),
      perTransactionLimit: r.nullableInteger('perTransactionLimit'),
    }))?.values ?? [],
  };
}

export function policyInput(b: RestBody): AgentPolicyInput {
  return {
    permissions: b.strings('permissions'),
    permissionsGiven: b.has('permissions'),
    defaultExecutionMode: b.string('defaultExecutionMode'),
    spendingLimits: b.object('spendingLimits', (l) => ({
      currency: l.string('currency'),
      perTransactionLimit: l.integer('perTransactionLimit'),
      dailyTransactionLimit: l.integer('dailyTransactionLimit'),
      dailyLimit: l.nullableInteger('dailyLimit'),
      monthlyLimit: l.nullableInteger('monthlyLimit'),
    })),
    accountRestrictions: b.object('accountRestrictions', restrictions),
    approvalThresholds: b.object(
      'approvalThresholds',
      (t) => ({ currency: t.string('currency'), amount: t.nullableInteger('amount') }),
    ),
  };
}

export function createAgentRequest(body: unknown): CreateAgentRequest {
  const b = RestBody.of(body);
  const request = {
    name: b.string('name'),
    customerId: b.string('customerId'),
    policy: b.object('policy', policyInput),
  };
  b.done('Invalid agent');
  return request;
}

export function updateAgentRequest(agentId: string, body: unknown): UpdateAgentRequest {
  const b = RestBody.of(body);
  const request = { agentId, name: b.string('name'), isPaused: b.boolean('isPaused') };
  b.done('Invalid agent update');
  return request;
}

export function updatePolicyRequest(agentId: string, body: unknown) {
  const b = RestBody.of(body);
  const request = { agentId, changes: policyInput(b) };
  b.done('Invalid policy update');
  return request;
}
