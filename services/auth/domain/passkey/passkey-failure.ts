import { AppError, type ErrorCode } from '../../../../lib/errors';

/**
 * Why passkey input was refused; carried as `details.reason`. The library's own message (which
 * names the failed check) is kept as the cause for the log, never sent.
 *
 * Code choice: input that is not the documented shape (missing member, not base64url, too long) is
 * INVALID_INPUT. A registration whose attestation fails verification is also INVALID_INPUT: it arrives
 * inside an already authorized add-credential retry and there is no registered credential yet, so it
 * is a bad request body. An assertion that fails verification against the registered credential
 * (signature, challenge, origin, rpId, flags, counter) is WALLET_SIGNATURE_INVALID, the interface's
 * code for exactly that.
 */
export type PasskeyFailureReason = 'MALFORMED' | 'ATTESTATION_REJECTED' | 'ASSERTION_REJECTED';

const CODES: Record<PasskeyFailureReason, ErrorCode> = {
  MALFORMED: 'INVALID_INPUT',
  ATTESTATION_REJECTED: 'INVALID_INPUT',
  ASSERTION_REJECTED: 'WALLET_SIGNATURE_INVALID',
};

export function passkeyFailure(reason: PasskeyFailureReason, message: string, cause?: unknown): AppError {
  return new AppError(CODES[reason], message, { reason }, cause === undefined ? undefined : { cause });
}

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** Validates a base64url member and returns it without padding (WebAuthn ids and challenges carry none). */
export function requireBase64url(value: unknown, field: string, maxChars: number): string {
  if (typeof value !== 'string' || !BASE64URL.test(value) || value.length > maxChars) {
    throw passkeyFailure('MALFORMED', `${field} must be a base64url string of at most ${maxChars} characters`);
  }
  return value.replace(/=+$/, '');
}

export function requireConfigured(rpIds: readonly string[], origins: readonly string[]): void {
  if (rpIds.length === 0 || origins.length === 0) {
    throw new AppError('INTERNAL_ERROR', 'passkey relying-party ids and origins are not configured');
  }
}

/** Size caps: a credential id is at most 1023 bytes (WebAuthn); the rest are generous. */
export const MAX_CHARS = {
  credentialId: 1366,
  challenge: 1366,
  clientDataJson: 8_192,
  attestationObject: 65_536,
  authenticatorData: 8_192,
  signature: 1_024,
  userHandle: 128,
  publicKey: 2_048,
} as const;
