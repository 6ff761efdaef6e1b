import type { LoginSecurity } from './sca-lockout';

/** How long a risky security event removes the trusted-beneficiary exemption. */
export const RISK_WINDOW_MS = 24 * 60 * 60_000;

/**
 * The risk signals of the recorded security events (POST /sca/record-event and wrong SCA proofs):
 * within RISK_WINDOW_MS of a failed login attempt or a password reset, the trusted-beneficiary
 * exemption does not apply and every payment needs its per-transaction challenge.
 */
export function riskyEventWithin(
  state: LoginSecurity,
  now: Date,
  windowMs = RISK_WINDOW_MS,
): 'FAILED_LOGIN_ATTEMPT' | 'RESET_PASSWORD_COMPLETED' | undefined {
  const since = now.getTime() - windowMs;
  const recent = (at: string | undefined) => at !== undefined && Date.parse(at) > since;
  if (state.suspended || recent(state.lastFailedAt)) return 'FAILED_LOGIN_ATTEMPT';
  if (recent(state.sessionsRevokedAt)) return 'RESET_PASSWORD_COMPLETED';
  return undefined;
}
