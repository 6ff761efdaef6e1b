import { hash } from 'node:crypto';
import { AppError } from '../../lib/errors';
import { isThrottled, type AuthThrottle } from './auth-throttle';

/** SHA-256 of a credential, the key it is remembered under (the one-shot `hash` costs a third of a Hash object). */
export const credentialDigest = (credential: string) => hash('sha256', credential, 'base64');

/** One credential to check: `subject` and `address` are what the throttle counts failures against. */
export interface CredentialCheck<T> {
  credential: string;
  subject: string;
  address: string;
  verify: () => Promise<T>;
  /** What else the check depends on (an agent operation's requirement), so only identical checks are shared. */
  variant?: string;
}

/**
 * Checks one credential under the failed-authentication throttle (auth-throttle.ts):
 * - a credential verified as correct before is checked without the throttle (a guess never has its digest);
 * - otherwise one attempt is reserved for (subject, address) and for the address before checking,
 *   kept when the credential is wrong (`isGuess`), given back when it is right or could not be checked;
 * - identical credentials in flight from one address share one check (and one reservation).
 */
export function credentialVerifier<T>(throttle: AuthThrottle, isGuess: (err: unknown) => boolean) {
  const inFlight = new Map<string, Promise<T>>();

  async function check(digest: string, subject: string, address: string, verify: () => Promise<T>): Promise<T> {
    if (throttle.isKnownGood(digest)) {
      return verify().catch((err: unknown) => {
        if (isGuess(err)) throttle.forgetGood(digest);
        throw err;
      });
    }
    const attempt = await throttle.reserve(subject, address);
    if (isThrottled(attempt)) {
      throw new AppError('RATE_LIMITED', 'Too many failed authentication attempts; try again later', { ...attempt });
    }
    try {
      const verified = await verify();
      attempt.release();
      throttle.rememberGood(digest);
      return verified;
    } catch (err) {
      if (isGuess(err)) attempt.failed();
      else attempt.release();
      throw err;
    }
  }

  return ({ credential, subject, address, verify, variant = '' }: CredentialCheck<T>): Promise<T> => {
    const digest = credentialDigest(credential);
    const key = `${digest}@${address}#${variant}`;
    const pending = inFlight.get(key);
    if (pending) return pending;
    const checked = check(digest, subject, address, verify).finally(() => inFlight.delete(key));
    inFlight.set(key, checked);
    return checked;
  };
}
