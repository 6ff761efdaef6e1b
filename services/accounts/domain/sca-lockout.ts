/**
 * A customer's login-security state, moved by recorded security events and failed SCA proofs
 * (the reference's RecordSecurityEventRequest): 5 failed attempts lock for 15 minutes, 6 for 30,
 * 7 for an hour, 8 for 24 hours, 9 or more suspend until a factor reset (liveness) completes.
 *
 * Counting is exact: a proof is evaluated only under a reservation taken before it is checked
 * (`withReservation`), so attempts in flight count against what is left before the next lock, and a
 * reservation is settled as a failure (counted) or given back (right proof).
 */
export interface LoginSecurity {
  failedAttempts: number;
  lockedUntil?: string;
  suspended: boolean;
  /** Sessions started before this are revoked. */
  sessionsRevokedAt?: string;
  /** When the last failed attempt (recorded event or wrong SCA proof) happened. */
  lastFailedAt?: string;
  /** Proof evaluations in flight: each counts as a failure until it is settled. */
  reservations?: AttemptReservation[];
  /** Written by every change: the store replaces the state only if it is still this version. */
  version?: number;
}

export interface AttemptReservation {
  id: string;
  at: string;
}

export const SECURITY_EVENT_TYPES = ['RESET_PASSWORD_COMPLETED', 'FAILED_LOGIN_ATTEMPT'] as const;
export type SecurityEventType = (typeof SECURITY_EVENT_TYPES)[number];

export const LOCK_AT = 5;
const LOCK_MINUTES: Record<number, number> = { 5: 15, 6: 30, 7: 60, 8: 24 * 60 };
const SUSPEND_AT = 9;
/** A reservation older than this is dropped (its evaluation died with its process). */
export const RESERVATION_TTL_MS = 60_000;

export const NO_LOCKOUT: LoginSecurity = { failedAttempts: 0, suspended: false };

/** The state after one failed attempt at `now`. */
export function afterFailedAttempt(state: LoginSecurity, now: Date): LoginSecurity {
  const failedAttempts = state.failedAttempts + 1;
  const lastFailedAt = now.toISOString();
  if (failedAttempts >= SUSPEND_AT) {
    return { ...state, failedAttempts, lastFailedAt, suspended: true, lockedUntil: undefined };
  }
  const minutes = LOCK_MINUTES[failedAttempts];
  return minutes
    ? { ...state, failedAttempts, lastFailedAt, lockedUntil: new Date(now.getTime() + minutes * 60_000).toISOString() }
    : { ...state, failedAttempts, lastFailedAt };
}

/**
 * A password reset recorded by the platform revokes every session and is a risk signal; it never
 * clears a lock or the failure count (only a completed factor reset does, `afterFactorReset`).
 */
export function afterPasswordReset(state: LoginSecurity, now: Date): LoginSecurity {
  return { ...state, sessionsRevokedAt: now.toISOString() };
}

/** A factor reset that passed liveness: the lock, the suspension and the count are cleared. */
export function afterFactorReset(state: LoginSecurity): LoginSecurity {
  return { ...state, failedAttempts: 0, suspended: false, lockedUntil: undefined };
}

export function afterEvent(state: LoginSecurity, type: SecurityEventType, now: Date): LoginSecurity {
  return type === 'FAILED_LOGIN_ATTEMPT' ? afterFailedAttempt(state, now) : afterPasswordReset(state, now);
}

export function isLocked(state: LoginSecurity, now: Date): boolean {
  return state.suspended || (state.lockedUntil !== undefined && Date.parse(state.lockedUntil) > now.getTime());
}

const liveReservations = (state: LoginSecurity, now: Date) =>
  (state.reservations ?? []).filter((r) => Date.parse(r.at) > now.getTime() - RESERVATION_TTL_MS);

/** Failed attempts still allowed before the next lock: up to 5, then one after each lock ends. */
export function attemptsLeft(state: LoginSecurity, now: Date): number {
  if (isLocked(state, now)) return 0;
  const allowed = state.failedAttempts < LOCK_AT ? LOCK_AT - state.failedAttempts : 1;
  return Math.max(0, allowed - liveReservations(state, now).length);
}

/** The state holding one more reservation, or undefined when no attempt is left. */
export function withReservation(
  state: LoginSecurity,
  reservation: AttemptReservation,
  now: Date,
): LoginSecurity | undefined {
  if (attemptsLeft(state, now) === 0) return undefined;
  return { ...state, reservations: [...liveReservations(state, now), reservation] };
}

/** The reservation settled: counted as a failed attempt, or given back. */
export function afterSettled(state: LoginSecurity, reservationId: string, failed: boolean, now: Date): LoginSecurity {
  const rest = { ...state, reservations: liveReservations(state, now).filter((r) => r.id !== reservationId) };
  return failed ? afterFailedAttempt(rest, now) : rest;
}
