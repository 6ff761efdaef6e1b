export interface RetryPolicy {
  /** Upper bound of the first retry's delay; each further retry doubles it. */
  baseDelayMs: number;
  /** The doubling stops here. */
  maxDelayMs: number;
  /** Attempts in all, the first included. */
  maxAttempts: number;
}

/**
 * 14 attempts: the delay caps add up to about 24 h (1, 2, 4 … 128 min, then 4 h five times), so
 * with full jitter a delivery is retried for about 12 h on average and at most about 24 h.
 */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { baseDelayMs: 60_000, maxDelayMs: 4 * 3_600_000, maxAttempts: 14 };

/** The cap of the delay after the n-th failed attempt (n ≥ 1). */
export function retryDelayCapMs(failedAttempts: number, policy: RetryPolicy): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, failedAttempts - 1));
}

/** Full jitter: uniform in [0, cap], so receivers that failed together are not retried together. */
export function retryDelayMs(failedAttempts: number, policy: RetryPolicy, random: () => number = Math.random): number {
  return Math.floor(random() * (retryDelayCapMs(failedAttempts, policy) + 1));
}

/** When to try again after `failedAttempts` failures, or undefined once the policy gives up. */
export function nextAttemptAt(failedAttempts: number, now: number, policy: RetryPolicy, random: () => number = Math.random): number | undefined {
  if (failedAttempts >= policy.maxAttempts) return undefined;
  return now + retryDelayMs(failedAttempts, policy, random);
}
