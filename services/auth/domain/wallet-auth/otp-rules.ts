import type { OtpChallenge } from './auth-method';

/** Wrong codes allowed per issued OTP before a new one must be requested. */
export const MAX_OTP_ATTEMPTS = 5;

/** The code every sandbox OTP has; nothing is delivered in the sandbox. */
export const SANDBOX_OTP_CODE = '000000';

/** Seconds until a new OTP may be issued for this credential; 0 when it may be now. */
export function reissueWaitSeconds(
  current: Pick<OtpChallenge, 'issuedAt'> | undefined,
  now: Date,
  intervalMs: number,
): number {
  if (!current) return 0;
  const waitMs = Date.parse(current.issuedAt) + intervalMs - now.getTime();
  return waitMs > 0 ? Math.ceil(waitMs / 1000) : 0;
}

export function isOtpExpired(otp: Pick<OtpChallenge, 'expiresAt'>, now: Date): boolean {
  return Date.parse(otp.expiresAt) <= now.getTime();
}
