export interface RetryBackoff {
  /** Delay before the first retry. */
  initialMs?: number;
  /** Upper bound of the doubling delay. */
  maxMs?: number;
}

/** Exponential backoff with up to 20 % jitter, so retries of many consumers do not align. */
export function backoffDelay(attempt: number, backoff: Required<RetryBackoff>): number {
  const base = Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + Math.random() * 0.2));
}
