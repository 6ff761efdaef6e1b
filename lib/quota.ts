import { AppError } from './errors';

/**
 * A cap on how many of a resource one owner (a platform, a wallet, a customer) holds at once.
 * With `retryAfterSeconds` the answer is 429 RATE_LIMITED with `Retry-After` (what the contract lists
 * for the operation; pending challenges and device codes end by themselves, a deletion makes room
 * for tokens and agents); without it 409 CONFLICT.
 */
export interface Quota {
  /** What is counted, in the answer's words ("API tokens per platform"). */
  what: string;
  limit: number;
  /** Set to answer 429: when to try again. */
  retryAfterSeconds?: number;
}

export function quotaExceeded(quota: Quota): AppError {
  const details = { quota: quota.what, limit: quota.limit };
  return quota.retryAfterSeconds === undefined
    ? new AppError(
      'CONFLICT',
      `Quota reached: at most ${quota.limit} ${quota.what}; close or delete one first`,
      details,
    )
    : new AppError(
      'RATE_LIMITED',
      `Quota reached: at most ${quota.limit} ${quota.what} at once; try again later, or delete one`,
      {
        ...details,
        retryAfterSeconds: quota.retryAfterSeconds,
      },
    );
}

/**
 * Creates one more resource within `quota`: refused when `count()` is already at the limit. When
 * concurrent creations pass that check together, each that finds the count over the limit
 * afterwards undoes its own, waits a moment (a random few milliseconds, so they do not collide
 * again) and tries once more: the limit is never exceeded, and a burst does not leave room unused.
 * `create` must make a new resource each time it is called (`undo` removes it).
 */
export async function createWithinQuota<T>(quota: Quota, steps: {
  count: () => Promise<number>;
  create: () => Promise<T>;
  undo: (created: T) => Promise<void>;
}): Promise<T> {
  for (let attempt = 0;; attempt += 1) {
    if ((await steps.count()) >= quota.limit) throw quotaExceeded(quota);
    const created = await steps.create();
    if ((await steps.count()) <= quota.limit) return created;
    await steps.undo(created);
    if (attempt === 3) throw quotaExceeded(quota);
    await new Promise((resolve) => setTimeout(resolve, 2 + Math.floor(Math.random() * 20 * (attempt + 1))));
  }
}
