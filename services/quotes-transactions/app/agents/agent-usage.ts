import { limitExceeded, usagePeriods, type ActingAgent, type LimitName } from '../../domain/agent-policy';
import type { VolumeStore } from '../daily-volume';

/** The daily-volume counters, reused for agents: atomic per counter, idempotent per action. */
export interface AgentUsageStore extends VolumeStore {
  used(counter: string): Promise<number>;
}

const UNLIMITED = Number.MAX_SAFE_INTEGER;

function counters(agentId: string, now: Date) {
  const { day, month } = usagePeriods(now);
  return {
    dailyTransactionLimit: `agent/${agentId}/count/${day}`,
    dailyLimit: `agent/${agentId}/spend/${day}`,
    monthlyLimit: `agent/${agentId}/spend/${month}`,
  } satisfies Partial<Record<LimitName, string>>;
}

/**
 * An agent's spending, counted when an action is submitted (so concurrent payments can never pass
 * a limit together: each counter is a conditional increment) and given back when the action is
 * rejected or fails. Counters are per UTC day and month, in the policy's currency.
 */
export function createAgentUsage(deps: { store: AgentUsageStore; clock: () => Date }) {
  async function reserve(agent: ActingAgent, actionId: string, amount: number): Promise<void> {
    const limits = agent.policy.spendingLimits;
    const c = counters(agent.agentId, deps.clock());
    const steps: Array<[LimitName, string, number, number | undefined]> = [
      ['dailyTransactionLimit', c.dailyTransactionLimit, 1, limits.dailyTransactionLimit],
      ['dailyLimit', c.dailyLimit, amount, limits.dailyLimit],
      ['monthlyLimit', c.monthlyLimit, amount, limits.monthlyLimit],
    ];
    for (const [name, counter, add, limit] of steps) {
      if (await deps.store.reserve({ counter, paymentId: actionId, amount: add, limit: limit ?? UNLIMITED })) continue;
      await deps.store.release({ paymentId: actionId });
      throw limitExceeded(name, limit!, limits.currency);
    }
  }

  const release = (actionId: string) => deps.store.release({ paymentId: actionId });

  async function current(agentId: string) {
    const now = deps.clock();
    const c = counters(agentId, now);
    const { dailyResetDate, monthlyResetMonth } = usagePeriods(now);
    const [count, daily, monthly] = await Promise.all([deps.store.used(c.dailyTransactionLimit), deps.store.used(c.dailyLimit), deps.store.used(c.monthlyLimit)]);
    return { dailyTransactionCount: count, dailySpend: daily, dailyResetDate, monthlySpend: monthly, monthlyResetMonth };
  }

  return { reserve, release, current };
}

export type AgentUsage = ReturnType<typeof createAgentUsage>;
