import { AppError } from '../../../../lib/errors';
import type { Credential } from '../../domain/wallet-auth/auth-method';
import { isOtpExpired, MAX_OTP_ATTEMPTS, reissueWaitSeconds } from '../../domain/wallet-auth/otp-rules';
import { otpCodesMatch } from '../../domain/wallet-crypto/otp-code';
import { openEncryptedOtpBundle } from '../../domain/wallet-crypto/otp-target-bundle';
import { isWalletCryptoError } from '../../domain/wallet-crypto/wallet-crypto-error';
import type { OtpIssuer } from './otp-issuer';
import type { CredentialStore } from './wallet-auth-stores';

const refused = (message: string) => new AppError('WALLET_SIGNATURE_INVALID', message);

/**
 * The first leg of an OTP verify: opens `encryptedOtpBundle` with the current challenge's target
 * key, compares the code in constant time within the attempt budget, and uses the code up.
 * Answers the client key sealed in the bundle: the key that must stamp the retry.
 */
export async function checkOtpAttempt(deps: {
  credentials: CredentialStore;
  otp: OtpIssuer;
  credential: Credential;
  encryptedOtpBundle: string;
  reissueIntervalMs: number;
  now: Date;
}): Promise<{ publicKey: string }> {
  const { credential, now } = deps;
  const otp = credential.otp;
  if (!otp) throw refused('No code is pending for this credential; request a challenge first');
  if (isOtpExpired(otp, now)) throw refused('The code has expired; request a new challenge');
  if (!(await deps.credentials.countOtpAttempt(credential.id, otp.challengeId, MAX_OTP_ATTEMPTS))) {
    throw new AppError('RATE_LIMITED', 'Too many wrong codes; request a new challenge', {
      retryAfterSeconds: Math.max(1, reissueWaitSeconds(otp, now, deps.reissueIntervalMs)),
    });
  }
  const secrets = deps.otp.openSecrets(otp);
  let opened;
  try {
    opened = await openEncryptedOtpBundle({
      encryptedOtpBundle: deps.encryptedOtpBundle,
      targetPrivateKey: secrets.targetPrivateKey,
    });
  } catch (err) {
    if (isWalletCryptoError(err, 'BUNDLE_MALFORMED')) {
      throw AppError.invalidInput('encryptedOtpBundle is not an encrypted OTP bundle', [{
        field: 'encryptedOtpBundle',
        message: err.message,
      }]);
    }
    throw refused('encryptedOtpBundle was not encrypted to the current challenge');
  }
  if (!otpCodesMatch(opened.otpCode, secrets.code)) throw refused('The code is wrong');
  if (!(await deps.credentials.consumeOtp(credential.id, otp.challengeId))) throw refused('The code was already used');
  return { publicKey: opened.publicKey };
}
