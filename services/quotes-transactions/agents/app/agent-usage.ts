import { limitExceeded, usagePeriods, type ActingAgent, type LimitName } from '../domain/agent-policy';

/** An agent's usage in one UTC day and its month. */
export interface UsageCounts {
  dailyTransactionCount: number;
  dailySpend: number;
  monthlySpend: number;
}

export interface UsageLimits {
  dailyTransactionLimit?: number;
  dailyLimit?: number;
  monthlyLimit?: number;
}

/** What an action counted, kept in the action itself so that it is given back once. */
export interface UsageReservation {
  /** The counters' document. */
  usage: string;
  day: string;
  amount: number;
  state: 'COUNTED' | 'RELEASED';
}

/**
 * Writes the action that carries `reservation`: throws `AgentActionExists` when it cannot (its quote
 * is claimed), and the count is then taken back.
 */
export type RecordReservation = (reservation: UsageReservation) => Promise<void>;

/**
 * The agent's counters of a month, one document: a reservation adds the action's count and spend
 * to its day and month in one conditional write (within every limit, or nothing), idempotent per action.
 */
export interface AgentUsageStore {
  /**
   * null when counted and recorded by `record`; otherwise the usage that refused it (nothing recorded).
   * Throws `AgentActionExists` when the action is already recorded (a repeat of its Idempotency-Key).
   * `fresh`: the action's id is new (no earlier attempt can have counted it), so none is looked for.
   */
  reserve(
    input: {
      agentId: string;
      actionId: string;
      day: string;
      month: string;
      amount: number;
      limits: UsageLimits;
      record: RecordReservation;
      fresh?: boolean;
    },
  ): Promise<UsageCounts | null>;
  /** Gives back what the action counted, once. */
  release(actionId: string): Promise<void>;
  used(agentId: string, day: string, month: string): Promise<UsageCounts>;
}

/** The first limit the action would pass, given the usage that refused it (none: usage moved since). */
export function exceededLimit(usage: UsageCounts, amount: number, limits: UsageLimits): LimitName | undefined {
  if (limits.dailyTransactionLimit !== undefined && usage.dailyTransactionCount + 1 > limits.dailyTransactionLimit) {
    return 'dailyTransactionLimit';
  }
  if (limits.dailyLimit !== undefined && usage.dailySpend + amount > limits.dailyLimit) return 'dailyLimit';
  if (limits.monthlyLimit !== undefined && usage.monthlySpend + amount > limits.monthlyLimit) return 'monthlyLimit';
  return undefined;
}

const ATTEMPTS = 3;

/**
 * An agent's spending, counted when an action is submitted (so concurrent payments can never pass
 * a limit together: the day's and month's counters move in one conditional write) and given back
 * when the action is rejected or fails. Counters are per UTC day and month, in the policy's currency.
 */
export function createAgentUsage(deps: { store: AgentUsageStore; clock: () => Date }) {
  /**
   * Counts `amount` and records the action by `record`, or refuses with the limit it would pass.
   * `fresh`: `actionId` was made for this reservation (not derived from an Idempotency-Key a repeat carries too).
   */
  async function reserve(
    agent: ActingAgent,
    input: { actionId: string; amount: number; record: RecordReservation; fresh?: boolean },
  ): Promise<void> {
    const { amount, fresh = false } = input;
    const { dailyTransactionLimit, dailyLimit, monthlyLimit, currency } = agent.policy.spendingLimits;
    const limits: UsageLimits = {
      ...(dailyTransactionLimit != null ? { dailyTransactionLimit } : {}),
      ...(dailyLimit != null ? { dailyLimit } : {}),
      ...(monthlyLimit != null ? { monthlyLimit } : {}),
    };
    const { day, month } = usagePeriods(deps.clock());
    for (let attempt = 1;; attempt++) {
      const refused = await deps.store.reserve({ ...input, agentId: agent.agentId, day, month, limits, fresh });
      if (!refused) return;
      const name = exceededLimit(refused, amount, limits);
      // Refused on usage a concurrent release has since lowered: tried again, a bounded number of times.
      if (name || attempt === ATTEMPTS) {
        const limit = name ?? 'dailyTransactionLimit';
        throw limitExceeded(limit, limits[limit as keyof UsageLimits] ?? 0, currency);
      }
    }
  }

  const release = (actionId: string) => deps.store.release(actionId);

  async function current(agentId: string) {
    const { day, month, dailyResetDate, monthlyResetMonth } = usagePeriods(deps.clock());
    const used = await deps.store.used(agentId, day, month);
    return { ...used, dailyResetDate, monthlyResetMonth };
  }

  return { reserve, release, current };
}

export type AgentUsage = ReturnType<typeof createAgentUsage>;
