/**
 * A customer's login-security state, moved by recorded security events and failed SCA proofs
 * (the reference's RecordSecurityEventRequest): 5 failed attempts lock for 15 minutes, 6 for 30,
 * 7 for an hour, 8 for 24 hours, 9 or more suspend until a RESET_PASSWORD_COMPLETED.
 */
export interface LoginSecurity {
  failedAttempts: number;
  lockedUntil?: string;
  suspended: boolean;
  /** Sessions started before this are revoked. */
  sessionsRevokedAt?: string;
  /** When the last failed attempt (recorded event or wrong SCA proof) happened. */
  lastFailedAt?: string;
}

export const SECURITY_EVENT_TYPES = ['RESET_PASSWORD_COMPLETED', 'FAILED_LOGIN_ATTEMPT'] as const;
export type SecurityEventType = (typeof SECURITY_EVENT_TYPES)[number];

const LOCK_MINUTES: Record<number, number> = { 5: 15, 6: 30, 7: 60, 8: 24 * 60 };
const SUSPEND_AT = 9;

export const NO_LOCKOUT: LoginSecurity = { failedAttempts: 0, suspended: false };

/** The state after one failed attempt at `now`. */
export function afterFailedAttempt(state: LoginSecurity, now: Date): LoginSecurity {
  const failedAttempts = state.failedAttempts + 1;
  const lastFailedAt = now.toISOString();
  if (failedAttempts >= SUSPEND_AT) return { ...state, failedAttempts, lastFailedAt, suspended: true, lockedUntil: undefined };
  const minutes = LOCK_MINUTES[failedAttempts];
  return minutes
    ? { ...state, failedAttempts, lastFailedAt, lockedUntil: new Date(now.getTime() + minutes * 60_000).toISOString() }
    : { ...state, failedAttempts, lastFailedAt };
}

/** A password reset revokes every session and clears the counter and any lock. */
export function afterPasswordReset(state: LoginSecurity, now: Date): LoginSecurity {
  return { failedAttempts: 0, suspended: false, sessionsRevokedAt: now.toISOString() };
}

export function afterEvent(state: LoginSecurity, type: SecurityEventType, now: Date): LoginSecurity {
  return type === 'FAILED_LOGIN_ATTEMPT' ? afterFailedAttempt(state, now) : afterPasswordReset(state, now);
}

export function isLocked(state: LoginSecurity, now: Date): boolean {
  return state.suspended || (state.lockedUntil !== undefined && Date.parse(state.lockedUntil) > now.getTime());
}
