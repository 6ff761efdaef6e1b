/**
 * Repeated warnings and errors (a client library retrying an unreachable broker writes several a
 * second) are written once per window per message; the next one written after the window says how
 * many were left out meanwhile.
 */
export function createLogRateLimit(windowMs = 10_000, now: () => number = Date.now) {
  const seen = new Map<string, { windowStart: number; suppressed: number }>();
  return {
    /** Whether to write this line now, and how many like it were left out since the last one written. */
    admit(key: string): { write: boolean; suppressed: number } {
      const t = now();
      const entry = seen.get(key);
      if (!entry || t - entry.windowStart >= windowMs) {
        seen.set(key, { windowStart: t, suppressed: 0 });
        if (seen.size > 1000) seen.delete(seen.keys().next().value!);
        return { write: true, suppressed: entry?.suppressed ?? 0 };
      }
      entry.suppressed++;
      return { write: false, suppressed: entry.suppressed };
    },
  };
}
