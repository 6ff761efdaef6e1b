import { AppError } from '../../../../lib/errors';

/*
 * An agent's policy as payments apply it: permissions, the accounts it may touch, the limits of
 * one payment, and whether a payment waits for the platform's approval.
 */

export type AgentPermission =
  | 'VIEW_TRANSACTIONS'
  | 'CREATE_TRANSFERS'
  | 'CREATE_QUOTES'
  | 'EXECUTE_QUOTES'
  | 'MANAGE_EXTERNAL_ACCOUNTS';
export type ExecutionMode = 'AUTO' | 'APPROVAL_REQUIRED';

export interface AgentPolicyRules {
  permissions: AgentPermission[];
  defaultExecutionMode: ExecutionMode;
  spendingLimits: {
    currency: string;
    perTransactionLimit: number;
    dailyLimit?: number;
    dailyTransactionLimit?: number;
    monthlyLimit?: number;
  };
  /** Absent: every account of the customer. */
  allowedAccountIds?: string[];
  accountRules: Array<{ accountId: string; executionMode?: ExecutionMode; perTransactionLimit?: number }>;
  approvalThresholds?: { currency?: string; amount?: number };
}

/** The authenticated agent a call acts for. */
export interface ActingAgent {
  agentId: string;
  customerId: string;
  policy: AgentPolicyRules;
}

export type LimitName = 'perTransactionLimit' | 'dailyLimit' | 'dailyTransactionLimit' | 'monthlyLimit';

export function limitExceeded(limit: LimitName, value: number, currency: string): AppError {
  return new AppError(
    'VELOCITY_LIMIT_EXCEEDED',
    `The payment would exceed the agent's ${limit} (${value}${
      limit === 'dailyTransactionLimit' ? ' transactions' : ` ${currency} minor units`
    })`,
    { limit, value, currency },
  );
}

export function requirePermission(agent: ActingAgent, permission: AgentPermission): void {
  if (!agent.policy.permissions.includes(permission)) {
    throw new AppError('FORBIDDEN', `The agent's policy does not grant ${permission}`, { permission });
  }
}

/** Internal accounts outside `allowedAccountIds` are refused. */
export function requireAllowedAccount(agent: ActingAgent, internalAccountId: string | undefined): void {
  const allowed = agent.policy.allowedAccountIds;
  if (internalAccountId && allowed && !allowed.includes(internalAccountId)) {
    throw new AppError('FORBIDDEN', `The agent's policy does not allow account ${internalAccountId}`, {
      accountId: internalAccountId,
    });
  }
}

/** Whether a payment from or to these internal accounts is within the agent's allowed accounts (what it may see). */
export function touchesAllowedAccount(agent: ActingAgent, accountIds: Array<string | undefined>): boolean {
  const allowed = agent.policy.allowedAccountIds;
  return !allowed || accountIds.some((id) => id !== undefined && allowed.includes(id));
}

/**
 * An agent pays accounts of its customer (the reference: "accounts referenced in the request must
 * belong to the agent's customer"): its internal accounts within allowedAccountIds, and the external
 * accounts registered for the customer; and UMA addresses, here or at another VASP (the reference's
 * agent quote answers the counterparty's 412 and 424), paid from an allowed account within the
 * policy's limits and approval thresholds like any other payment. Any other destination is refused.
 */
export function requireAllowedPayee(destinationType: string | undefined): void {
  if (destinationType !== undefined && destinationType !== 'ACCOUNT' && destinationType !== 'UMA_ADDRESS') {
    throw new AppError(
      'FORBIDDEN',
      `The agent's policy allows paying only accounts of its customer, not a ${destinationType} destination`,
      { destinationType },
    );
  }
}

const ruleFor = (agent: ActingAgent, accountId: string | undefined) =>
  agent.policy.accountRules.find((r) => r.accountId === accountId);

/** The per-transaction limit for a payment touching this internal account (an account rule overrides). */
export function assertWithinPerTransactionLimit(
  agent: ActingAgent,
  internalAccountId: string | undefined,
  amount: number,
): void {
  const limit = ruleFor(agent, internalAccountId)?.perTransactionLimit
    ?? agent.policy.spendingLimits.perTransactionLimit;
  if (amount > limit) throw limitExceeded('perTransactionLimit', limit, agent.policy.spendingLimits.currency);
}

/**
 * Approval is needed when the account's rule (or the default) says APPROVAL_REQUIRED, or when the
 * amount, in the threshold's currency, is above the threshold.
 */
export function needsApproval(
  agent: ActingAgent,
  internalAccountId: string | undefined,
  amountInThresholdCurrency: number | undefined,
): boolean {
  const mode = ruleFor(agent, internalAccountId)?.executionMode ?? agent.policy.defaultExecutionMode;
  if (mode === 'APPROVAL_REQUIRED') return true;
  const threshold = agent.policy.approvalThresholds?.amount;
  return threshold !== undefined && amountInThresholdCurrency !== undefined && amountInThresholdCurrency > threshold;
}

/** UTC day and month the counters belong to, and when they start again. */
export function usagePeriods(now: Date) {
  const day = now.toISOString().slice(0, 10);
  const month = day.slice(0, 7);
  const tomorrow = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString()
    .slice(0, 10);
  const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString().slice(0, 7);
  return { day, month, dailyResetDate: tomorrow, monthlyResetMonth: nextMonth };
}
