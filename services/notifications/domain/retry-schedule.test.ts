import { DEFAULT_RETRY_POLICY, nextAttemptAt, retryDelayCapMs, retryDelayMs } from './retry-schedule';
import { stateAfterAttempt } from './webhook-delivery';

const policy = { baseDelayMs: 1_000, maxDelayMs: 60_000, maxAttempts: 5 };
const MIN = 60_000;

test.each([
  [1, 1_000], [2, 2_000], [3, 4_000], [6, 32_000], [7, 60_000], [40, 60_000],
])('the cap after %i failures is %i ms', (failures, cap) => {
  expect(retryDelayCapMs(failures, policy)).toBe(cap);
});

test('full jitter: the lowest random gives 0, the highest the cap itself, never beyond', () => {
  expect(retryDelayMs(3, policy, () => 0)).toBe(0);
  expect(retryDelayMs(3, policy, () => 0.9999999999)).toBe(4_000);
  expect(retryDelayMs(3, policy, () => 0.5)).toBe(2_000);
});

test('random delays stay within [0, cap] and spread over the range', () => {
  for (let failures = 1; failures <= 12; failures++) {
    const cap = retryDelayCapMs(failures, policy);
    const delays = Array.from({ length: 500 }, () => retryDelayMs(failures, policy));
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...delays)).toBeLessThanOrEqual(cap);
    expect(delays.every(Number.isInteger)).toBe(true);
    expect(Math.max(...delays) - Math.min(...delays)).toBeGreaterThan(cap / 2);
  }
});

test('gives up once the attempts are spent', () => {
  expect(nextAttemptAt(4, 1_000, policy, () => 0.5)).toBe(1_000 + 4_000);
  expect(nextAttemptAt(5, 1_000, policy, () => 0.5)).toBeUndefined();
});

test('the default policy retries for at most about 24 hours', () => {
  let worstCase = 0;
  for (let failures = 1; failures < DEFAULT_RETRY_POLICY.maxAttempts; failures++) worstCase += retryDelayCapMs(failures, DEFAULT_RETRY_POLICY);
  expect(worstCase).toBe(1455 * MIN);
  expect(nextAttemptAt(DEFAULT_RETRY_POLICY.maxAttempts, 0, DEFAULT_RETRY_POLICY)).toBeUndefined();
});

describe('the state after an attempt', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  test('acknowledged: DELIVERED', () => {
    expect(stateAfterAttempt({ attemptCount: 1, maxAttempts: 5 }, 'ACKNOWLEDGED', now, policy)).toEqual({ status: 'DELIVERED', deliveredAt: now.toISOString() });
  });
  test('no endpoint: SKIPPED', () => {
    expect(stateAfterAttempt({ attemptCount: 1, maxAttempts: 5 }, 'NO_ENDPOINT', now, policy)).toEqual({ status: 'SKIPPED' });
  });
  test.each(['REJECTED', 'UNREACHABLE'] as const)('%s with attempts left: PENDING within the cap', (outcome) => {
    expect(stateAfterAttempt({ attemptCount: 2, maxAttempts: 5 }, outcome, now, policy, () => 0.9999999999)).toEqual({ status: 'PENDING', dueAt: now.getTime() + 2_000 });
  });
  test('the last attempt failing: FAILED', () => {
    expect(stateAfterAttempt({ attemptCount: 5, maxAttempts: 5 }, 'REJECTED', now, policy)).toEqual({ status: 'FAILED' });
  });
});
