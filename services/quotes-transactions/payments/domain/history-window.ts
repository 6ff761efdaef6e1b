/**
 * PSD2's exemption for account information (RTS art. 10): an SCA customer's transactions of the last
 * HISTORY_WINDOW_DAYS are readable without a live SCA login session; older history needs one.
 */
export const HISTORY_WINDOW_DAYS = 90;

export function historyWindowStart(now: Date): string {
  return new Date(now.getTime() - HISTORY_WINDOW_DAYS * 24 * 60 * 60_000).toISOString();
}

/** Whether a read starting at `startDate` (undefined: from the beginning) reaches before the window. */
export function reachesBeyondWindow(startDate: string | undefined, now: Date): boolean {
  return startDate === undefined || startDate < historyWindowStart(now);
}
