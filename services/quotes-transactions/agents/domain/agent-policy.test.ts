import {
  assertWithinPerTransactionLimit,
  needsApproval,
  requireAllowedAccount,
  usagePeriods,
  type ActingAgent,
} from './agent-policy';

const agent = (policy: Partial<ActingAgent['policy']> = {}): ActingAgent => ({
  agentId: 'Agent:1',
  customerId: 'Customer:1',
  policy: {
    permissions: [],
    defaultExecutionMode: 'AUTO',
    spendingLimits: { currency: 'USD', perTransactionLimit: 1000 },
    accountRules: [],
    ...policy,
  },
});

test('approval: the account rule, else the default mode; a threshold forces it above the amount only', () => {
  expect(needsApproval(agent(), 'A', undefined)).toBe(false);
  expect(needsApproval(agent({ defaultExecutionMode: 'APPROVAL_REQUIRED' }), 'A', undefined)).toBe(true);
  expect(
    needsApproval(
      agent({ defaultExecutionMode: 'APPROVAL_REQUIRED', accountRules: [{ accountId: 'A', executionMode: 'AUTO' }] }),
      'A',
      undefined,
    ),
  ).toBe(false);
  expect(needsApproval(agent({ approvalThresholds: { currency: 'USD', amount: 500 } }), 'A', 500)).toBe(false);
  expect(needsApproval(agent({ approvalThresholds: { currency: 'USD', amount: 500 } }), 'A', 501)).toBe(true);
});

test('per-transaction limit: an account rule overrides it', () => {
  expect(() => assertWithinPerTransactionLimit(agent(), 'A', 1000)).not.toThrow();
  expect(() => assertWithinPerTransactionLimit(agent(), 'A', 1001)).toThrow(
    expect.objectContaining({ code: 'VELOCITY_LIMIT_EXCEEDED' }),
  );
  expect(() =>
    assertWithinPerTransactionLimit(agent({ accountRules: [{ accountId: 'A', perTransactionLimit: 10 }] }), 'A', 11)
  ).toThrow();
  expect(() =>
    assertWithinPerTransactionLimit(agent({ accountRules: [{ accountId: 'A', perTransactionLimit: 10 }] }), 'B', 11)
  ).not.toThrow();
});

test('allowed accounts', () => {
  expect(() => requireAllowedAccount(agent({ allowedAccountIds: ['A'] }), 'B')).toThrow(
    expect.objectContaining({ code: 'FORBIDDEN' }),
  );
  expect(() => requireAllowedAccount(agent({ allowedAccountIds: ['A'] }), 'A')).not.toThrow();
  expect(() => requireAllowedAccount(agent(), 'B')).not.toThrow();
});

test('usage periods are UTC days and months', () => {
  expect(usagePeriods(new Date('2026-12-31T23:59:59Z'))).toEqual({
    day: '2026-12-31',
    month: '2026-12',
    dailyResetDate: '2027-01-01',
    monthlyResetMonth: '2027-01',
  });
});
