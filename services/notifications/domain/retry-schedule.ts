export interface RetryPolicy {
  /** Upper bound of the first retry's delay; each further retry doubles it. */
  baseDelayMs: number;
  /** The doubling stops here: two attempts are never further apart. */
  maxDelayMs: number;
  /** No attempt is made later than this after the delivery was recorded. */
  retryWindowMs: number;
  /** Attempts in all, the first included: a bound on a delivery's record, rarely reached within the window. */
  maxAttempts: number;
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/**
 * Grid's promise for its webhooks: retried for up to 7 days, at most 30 minutes apart once the
 * backoff reaches it (30 s, 1, 2, 4, 8, 16 min, then 30 min). With full jitter a delivery is tried
 * about every 15 minutes once capped: some 670 attempts in the week, so 1,000 leaves room.
 */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  baseDelayMs: 30_000,
  maxDelayMs: 30 * MINUTE,
  retryWindowMs: 7 * DAY,
  maxAttempts: 1_000,
};

/** The cap of the delay after the n-th failed attempt (n ≥ 1). */
export function retryDelayCapMs(
  failedAttempts: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
): number {
  // 2 ** n overflows to Infinity for large n, which Math.min caps.
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, failedAttempts - 1));
}

/**
 * Full jitter ("Exponential Backoff and Jitter", AWS Architecture Blog): uniform in [0, cap], so
 * receivers that failed together are not retried together.
 */
export function retryDelayMs(
  failedAttempts: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
  random: () => number = Math.random,
): number {
  return Math.floor(random() * (retryDelayCapMs(failedAttempts, policy) + 1));
}

/** A delivery that failed `failedAttempts` times, the last at `now` (epoch ms); its window opened at `firstAt`. */
export interface FailedAttempts {
  failedAttempts: number;
  now: number;
  policy: RetryPolicy;
  random?: () => number;
  firstAt?: number;
}

/**
 * When to try again after `failedAttempts` failures, or undefined once the policy gives up: the
 * attempts are spent, or the next one would fall after the retry window that opened at `firstAt`.
 */
export function nextAttemptAt(
  { failedAttempts, now, policy, random = Math.random, firstAt = now }: FailedAttempts,
): number | undefined {
  if (failedAttempts >= policy.maxAttempts) return undefined;
  const due = now + retryDelayMs(failedAttempts, policy, random);
  return due > firstAt + policy.retryWindowMs ? undefined : due;
}
