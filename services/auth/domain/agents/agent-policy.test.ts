import type { AppError } from '../../../../lib/errors';
import { changePolicy, parsePolicy } from './agent-policy';
import { deviceCodeDigest, newDeviceCode, normalizeDeviceCode } from './agent-credentials';

const base = {
  permissions: ['CREATE_QUOTES'],
  defaultExecutionMode: 'AUTO',
  spendingLimits: { currency: 'USD', perTransactionLimit: 100, dailyLimit: 1000 },
};

test('a whole policy: removed limits are null, duplicates dropped', () => {
  expect(parsePolicy({ ...base, permissions: ['CREATE_QUOTES', 'CREATE_QUOTES'] })).toEqual({
    permissions: ['CREATE_QUOTES'],
    defaultExecutionMode: 'AUTO',
    spendingLimits: { currency: 'USD', perTransactionLimit: 100, dailyLimit: 1000, monthlyLimit: null },
  });
});

test('every invalid member is listed', () => {
  let error: AppError | undefined;
  try {
    parsePolicy({
      permissions: ['FLY'],
      spendingLimits: { currency: 'usd', perTransactionLimit: -1 },
      approvalThresholds: { amount: 5 },
    });
  } catch (err) {
    error = err as AppError;
  }
  expect(error?.details?.errors).toEqual(expect.arrayContaining([
    expect.objectContaining({ field: 'policy.permissions[0]' }),
    expect.objectContaining({ field: 'policy.defaultExecutionMode' }),
    expect.objectContaining({ field: 'policy.spendingLimits.currency' }),
    expect.objectContaining({ field: 'policy.spendingLimits.perTransactionLimit' }),
    expect.objectContaining({ field: 'policy.approvalThresholds.currency' }),
  ]));
});

test('a partial change replaces what it names and keeps the rest', () => {
  const current = parsePolicy(base);
  expect(changePolicy(current, { spendingLimits: { dailyLimit: null, monthlyLimit: 5000 } }).spendingLimits)
    .toEqual({ currency: 'USD', perTransactionLimit: 100, dailyLimit: null, monthlyLimit: 5000 });
  expect(changePolicy(current, { permissions: [] }).permissions).toEqual([]);
  expect(changePolicy(current, {})).toEqual(current);
});

test('device codes: 12 symbols without look-alikes, typed any way they hash the same', () => {
  const code = newDeviceCode();
  expect(code).toMatch(/^GRID-AGENT-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);
  expect(normalizeDeviceCode(` ${code.slice(11).toLowerCase().replace(/-/g, ' ')} `)).toBe(code.slice(11));
  expect(deviceCodeDigest(code.toLowerCase())).toBe(deviceCodeDigest(code));
  expect(new Set(Array.from({ length: 1000 }, newDeviceCode)).size).toBe(1000);
});
