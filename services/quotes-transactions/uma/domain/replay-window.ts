/** How old (and how far ahead of our clock) a signed UMA message's timestamp may be. */
export interface ReplayWindow {
  maxAgeMs: number;
  maxAheadMs: number;
}

export const DEFAULT_REPLAY_WINDOW: ReplayWindow = { maxAgeMs: 5 * 60_000, maxAheadMs: 60_000 };

/** Whether a message signed at `timestampSeconds` (Unix seconds) is recent enough to be acted on. */
export function acceptsTimestamp(window: ReplayWindow, timestampSeconds: number, now: Date): boolean {
  if (!Number.isFinite(timestampSeconds)) return false;
  const at = timestampSeconds * 1000;
  return at >= now.getTime() - window.maxAgeMs && at <= now.getTime() + window.maxAheadMs;
}
