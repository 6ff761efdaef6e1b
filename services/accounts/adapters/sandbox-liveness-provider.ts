import { randomBytes } from 'node:crypto';
import type { LivenessProvider } from '../app/sca-recovery';

/** Applicant names (whole name, any case) that make the sandbox liveness check fail. */
export const SANDBOX_LIVENESS_FAIL_NAMES = ['sandbox liveness fail'];

/**
 * Sandbox liveness: passes `delayMs` after the reset starts, or fails for an applicant named in
 * SANDBOX_LIVENESS_FAIL_NAMES. The outcome and start time travel in the token (no state to lose).
 */
export function createSandboxLivenessProvider(
  settings: { delayMs: number; linkBase: string },
  clock: () => Date = () => new Date(),
): LivenessProvider {
  return {
    async open(reset) {
      const fails = SANDBOX_LIVENESS_FAIL_NAMES.includes(reset.applicantName.trim().toLowerCase());
      const accessToken = `sbx_${fails ? 'fail' : 'pass'}_${clock().getTime()}_${
        randomBytes(16).toString('base64url')
      }`;
      return { accessToken, verificationLink: `${settings.linkBase}/${encodeURIComponent(reset.id)}` };
    },
    async outcome(accessToken) {
      const [, verdict, at] = accessToken.split('_');
      if (clock().getTime() < Number(at) + settings.delayMs) return 'PENDING';
      return verdict === 'pass' ? 'PASSED' : 'FAILED';
    },
  };
}
