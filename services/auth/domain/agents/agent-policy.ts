import { AppError, type FieldError } from '../../../../lib/errors';

/* An agent's policy: what it may do, how its actions execute, and how much it may spend. */

export const PERMISSIONS = [
  'VIEW_TRANSACTIONS',
  'CREATE_TRANSFERS',
  'CREATE_QUOTES',
  'EXECUTE_QUOTES',
  'MANAGE_EXTERNAL_ACCOUNTS',
] as const;
export const EXECUTION_MODES = ['AUTO', 'APPROVAL_REQUIRED'] as const;
export type Permission = (typeof PERMISSIONS)[number];
export type ExecutionMode = (typeof EXECUTION_MODES)[number];

export interface SpendingLimits {
  currency: string;
  perTransactionLimit: number;
  dailyLimit: number | null;
  dailyTransactionLimit?: number;
  monthlyLimit: number | null;
}

export interface AccountRule {
  accountId: string;
  executionMode?: ExecutionMode;
  perTransactionLimit: number | null;
}

export interface AccountRestrictions {
  allowedAccountIds: string[] | null;
  accountRules: AccountRule[];
}

export interface ApprovalThresholds {
  currency?: string;
  amount: number | null;
}

export interface AgentPolicy {
  permissions: Permission[];
  defaultExecutionMode: ExecutionMode;
  spendingLimits: SpendingLimits;
  accountRestrictions?: AccountRestrictions;
  approvalThresholds?: ApprovalThresholds;
}

/** A member given as null is `null`; one not given is `undefined`. */
type Given<T> = T | null | undefined;

export interface SpendingLimitsInput {
  currency?: string;
  perTransactionLimit?: number;
  dailyLimit?: Given<number>;
  dailyTransactionLimit?: number;
  monthlyLimit?: Given<number>;
}

export interface AccountRuleInput {
  accountId?: string;
  executionMode?: string;
  perTransactionLimit?: Given<number>;
}

export interface PolicyInput {
  permissions?: string[];
  defaultExecutionMode?: string;
  spendingLimits?: SpendingLimitsInput;
  accountRestrictions?: { allowedAccountIds?: string[] | null; accountRules?: AccountRuleInput[] };
  approvalThresholds?: { currency?: string; amount?: Given<number> };
}

const CURRENCY = /^[A-Z]{3,10}$/;

/** Collects every invalid member of a policy, with REST dot paths under `prefix`. */
class PolicyReader {
  readonly errors: FieldError[] = [];
  constructor(private readonly prefix: string) {}

  private fail(field: string, message: string, constraint?: FieldError['constraint']) {
    this.errors.push({ field: `${this.prefix}.${field}`, message, ...(constraint ? { constraint } : {}) });
  }

  required<T>(field: string, value: T | undefined): T | undefined {
    if (value === undefined) this.fail(field, 'is required');
    return value;
  }

  amount(field: string, value: number | undefined): number | undefined {
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) {
      this.fail(field, 'must be an integer ≥ 0 (minor units)');
    }
    return value;
  }

  currency(field: string, value: string | undefined): string | undefined {
    if (value !== undefined && !CURRENCY.test(value)) {
      this.fail(field, 'must be a currency code', { pattern: CURRENCY.source });
    }
    return value;
  }

  oneOf<T extends string>(field: string, value: string | undefined, values: readonly T[]): T | undefined {
    if (value !== undefined && !values.includes(value as T)) {
      this.fail(field, `must be one of ${values.join(', ')}`, { enum: [...values] });
    }
    return value as T | undefined;
  }

  permissions(value: string[]): Permission[] {
    value.forEach((p, i) => this.oneOf(`permissions[${i}]`, p, PERMISSIONS));
    return [...new Set(value)] as Permission[];
  }

  done(): void {
    if (this.errors.length) throw AppError.invalidInput('Invalid agent policy', this.errors);
  }
}

function limitsOf(r: PolicyReader, input: SpendingLimitsInput, current?: SpendingLimits): SpendingLimits {
  const currency = r.currency('spendingLimits.currency', input.currency) ?? current?.currency;
  const perTransactionLimit = r.amount('spendingLimits.perTransactionLimit', input.perTransactionLimit)
    ?? current?.perTransactionLimit;
  if (!current) {
    r.required('spendingLimits.currency', input.currency);
    r.required('spendingLimits.perTransactionLimit', input.perTransactionLimit);
  }
  const nullable = (field: 'dailyLimit' | 'monthlyLimit') =>
    input[field] === undefined
      ? (current?.[field] ?? null)
      : input[field] === null
      ? null
      : r.amount(`spendingLimits.${field}`, input[field] as number)!;
  const dailyTransactionLimit = r.amount('spendingLimits.dailyTransactionLimit', input.dailyTransactionLimit)
    ?? current?.dailyTransactionLimit;
  return {
    currency: currency ?? '',
    perTransactionLimit: perTransactionLimit ?? 0,
    dailyLimit: nullable('dailyLimit'),
    monthlyLimit: nullable('monthlyLimit'),
    ...(dailyTransactionLimit !== undefined ? { dailyTransactionLimit } : {}),
  };
}

function restrictionsOf(r: PolicyReader, input: NonNullable<PolicyInput['accountRestrictions']>): AccountRestrictions {
  const accountRules = (input.accountRules ?? []).map((rule, i): AccountRule => {
    const at = `accountRestrictions.accountRules[${i}]`;
    const executionMode = r.oneOf(`${at}.executionMode`, rule.executionMode, EXECUTION_MODES);
    return {
      accountId: r.required(`${at}.accountId`, rule.accountId) ?? '',
      ...(executionMode ? { executionMode } : {}),
      perTransactionLimit: rule.perTransactionLimit === undefined || rule.perTransactionLimit === null
        ? null
        : r.amount(`${at}.perTransactionLimit`, rule.perTransactionLimit)!,
    };
  });
  return { allowedAccountIds: input.allowedAccountIds ?? null, accountRules };
}

function thresholdsOf(r: PolicyReader, input: NonNullable<PolicyInput['approvalThresholds']>): ApprovalThresholds {
  const currency = r.currency('approvalThresholds.currency', input.currency);
  const amount = input.amount === undefined || input.amount === null
    ? null
    : r.amount('approvalThresholds.amount', input.amount)!;
  if (amount !== null && currency === undefined) r.required('approvalThresholds.currency', undefined);
  return { ...(currency ? { currency } : {}), amount };
}

/** A whole policy, as POST /agents gives it. */
export function parsePolicy(input: PolicyInput | undefined): AgentPolicy {
  const r = new PolicyReader('policy');
  if (!input) {
    r.required('permissions', undefined);
    r.done();
  }
  const permissions = r.required('permissions', input!.permissions);
  const mode = r.oneOf(
    'defaultExecutionMode',
    r.required('defaultExecutionMode', input!.defaultExecutionMode),
    EXECUTION_MODES,
  );
  const limits = r.required('spendingLimits', input!.spendingLimits);
  const policy: AgentPolicy = {
    permissions: r.permissions(permissions ?? []),
    defaultExecutionMode: mode ?? 'AUTO',
    spendingLimits: limitsOf(r, limits ?? {}),
    ...(input!.accountRestrictions ? { accountRestrictions: restrictionsOf(r, input!.accountRestrictions) } : {}),
    ...(input!.approvalThresholds ? { approvalThresholds: thresholdsOf(r, input!.approvalThresholds) } : {}),
  };
  r.done();
  return policy;
}

/** A partial change (PATCH /agents/{id}/policy): members given replace, members left out stay. */
export function changePolicy(current: AgentPolicy, input: PolicyInput): AgentPolicy {
  const r = new PolicyReader('policy');
  const mode = r.oneOf('defaultExecutionMode', input.defaultExecutionMode, EXECUTION_MODES);
  const next: AgentPolicy = {
    permissions: input.permissions ? r.permissions(input.permissions) : current.permissions,
    defaultExecutionMode: mode ?? current.defaultExecutionMode,
    spendingLimits: input.spendingLimits
      ? limitsOf(r, input.spendingLimits, current.spendingLimits)
      : current.spendingLimits,
  };
  const restrictions = input.accountRestrictions
    ? restrictionsOf(r, input.accountRestrictions)
    : current.accountRestrictions;
  const thresholds = input.approvalThresholds ? thresholdsOf(r, input.approvalThresholds) : current.approvalThresholds;
  r.done();
  return {
    ...next,
    ...(restrictions ? { accountRestrictions: restrictions } : {}),
    ...(thresholds ? { approvalThresholds: thresholds } : {}),
  };
}
