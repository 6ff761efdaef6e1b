import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { WalletCryptoError } from './wallet-crypto-error';

export const DEFAULT_OTP_LENGTH = 6;
export const DEFAULT_OTP_ALPHABET = '0123456789';

export interface OtpCodeOptions {
  length?: number;
  /** Distinct single-code-unit characters, at least two. */
  alphabet?: string;
}

/** randomInt rejects out-of-range samples, so every character is equally likely. */
export function generateOtpCode(
  { length = DEFAULT_OTP_LENGTH, alphabet = DEFAULT_OTP_ALPHABET }: OtpCodeOptions = {},
): string {
  if (!Number.isInteger(length) || length < 1 || length > 64) {
    throw new WalletCryptoError('INVALID_ARGUMENT', 'OTP length must be an integer from 1 to 64');
  }
  if (alphabet.length < 2 || new Set(alphabet).size !== alphabet.length || [...alphabet].length !== alphabet.length) {
    throw new WalletCryptoError('INVALID_ARGUMENT', 'OTP alphabet must have at least two distinct BMP characters');
  }
  let code = '';
  for (let i = 0; i < length; i += 1) code += alphabet[randomInt(alphabet.length)];
  return code;
}

/** Constant-time in the content; hashing first hides the lengths as well. */
export function otpCodesMatch(presented: string, expected: string): boolean {
  if (typeof presented !== 'string' || typeof expected !== 'string') return false;
  const a = createHash('sha256').update(presented, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}
