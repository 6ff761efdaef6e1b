import { DEFAULT_RETRY_POLICY, nextAttemptAt, retryDelayCapMs, retryDelayMs } from './retry-schedule';
import { stateAfterAttempt } from './webhook-delivery';

const policy = { baseDelayMs: 1_000, maxDelayMs: 60_000, retryWindowMs: 3_600_000, maxAttempts: 5 };
const MIN = 60_000;

test.each([
  [1, 1_000],
  [2, 2_000],
  [3, 4_000],
  [6, 32_000],
  [7, 60_000],
  [40, 60_000],
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
  expect(nextAttemptAt({ failedAttempts: 4, now: 1_000, policy, random: () => 0.5 })).toBe(1_000 + 4_000);
  expect(nextAttemptAt({ failedAttempts: 5, now: 1_000, policy, random: () => 0.5 })).toBeUndefined();
});

test('gives up once the next attempt would fall after the retry window', () => {
  const start = 1_000;
  const lastChance = start + policy.retryWindowMs - 60_000;
  expect(nextAttemptAt({
    failedAttempts: 2,
    now: lastChance,
    policy,
    random: () => 0.9999999999,
    firstAt: start,
  })).toBe(start + policy.retryWindowMs - 58_000);
  expect(nextAttemptAt({
    failedAttempts: 4,
    now: start + policy.retryWindowMs - 5_000,
    policy,
    random: () => 0.9999999999,
    firstAt: start,
  })).toBeUndefined();
  expect(nextAttemptAt({
    failedAttempts: 4,
    now: start + policy.retryWindowMs - 5_000,
    policy,
    random: () => 0,
    firstAt: start,
  })).toBe(start + policy.retryWindowMs - 5_000);
});

describe("the default policy is Grid's: up to 7 days, at most 30 minutes apart", () => {
  test('the cap doubles from 30 s and stops at 30 minutes', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 500].map((n) => retryDelayCapMs(n, DEFAULT_RETRY_POLICY) / 1000)).toEqual([
      30,
      60,
      120,
      240,
      480,
      960,
      1800,
      1800,
      1800,
    ]);
  });

  test('a receiver that never answers is tried until 7 days after the first attempt, at most 30 minutes apart', () => {
    let seed = 42;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const start = Date.parse('2026-01-01T00:00:00Z');
    const times = [start];
    for (let failures = 1;; failures++) {
      const next = nextAttemptAt({
        failedAttempts: failures,
        now: times[times.length - 1],
        policy: DEFAULT_RETRY_POLICY,
        random,
        firstAt: start,
      });
      if (next === undefined) break;
      times.push(next);
    }
    const gaps = times.slice(1).map((t, i) => t - times[i]);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(30 * MIN);
    expect(times[times.length - 1] - start).toBeLessThanOrEqual(7 * 24 * 60 * MIN);
    expect(times[times.length - 1] - start).toBeGreaterThan(7 * 24 * 60 * MIN - 30 * MIN);
    expect(times.length).toBeLessThan(DEFAULT_RETRY_POLICY.maxAttempts);
  });
});

describe('the state after an attempt', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  test('acknowledged: DELIVERED', () => {
    expect(stateAfterAttempt({
      delivery: { attemptCount: 1, maxAttempts: 5 },
      outcome: 'ACKNOWLEDGED',
      now,
      policy,
    })).toEqual({ status: 'DELIVERED', deliveredAt: now.toISOString() });
  });
  test('no endpoint: SKIPPED', () => {
    expect(stateAfterAttempt({
      delivery: { attemptCount: 1, maxAttempts: 5 },
      outcome: 'NO_ENDPOINT',
      now,
      policy,
    })).toEqual({ status: 'SKIPPED' });
  });
  test.each(['REJECTED', 'UNREACHABLE'] as const)('%s with attempts left: PENDING within the cap', (outcome) => {
    expect(stateAfterAttempt({
      delivery: { attemptCount: 2, maxAttempts: 5 },
      outcome,
      now,
      policy,
      random: () => 0.9999999999,
    })).toEqual({ status: 'PENDING', dueAt: now.getTime() + 2_000 });
  });
  test('the last attempt failing: FAILED', () => {
    expect(stateAfterAttempt({
      delivery: { attemptCount: 5, maxAttempts: 5 },
      outcome: 'REJECTED',
      now,
      policy,
    })).toEqual({ status: 'FAILED' });
  });
  test('a failure at the end of the retry window: FAILED', () => {
    const createdAt = new Date(now.getTime() - policy.retryWindowMs + 500).toISOString();
    expect(stateAfterAttempt({
      delivery: { attemptCount: 3, maxAttempts: 5, createdAt },
      outcome: 'UNREACHABLE',
      now,
      policy,
      random: () => 0.9999999999,
    })).toEqual({ status: 'FAILED' });
  });
});
