import { AppError, type ErrorCode } from '../../../../lib/errors';

/**
 * Why an OIDC id token was refused; carried as `details.reason` so callers and tests can
 * tell the cases apart without parsing messages.
 *
 * Code choice: a token that is malformed, unsigned by the issuer, from a disallowed issuer or
 * audience, stale or expired is bad input (INVALID_INPUT, 400): the client must fetch a new
 * token. A well-formed, fresh token that names a different identity than the credential, or is
 * bound to a different client key (nonce), is refused as UNAUTHORIZED (401). An issuer whose
 * discovery document or key set cannot be fetched is our dependency failing: UNAVAILABLE.
 */
export type OidcFailureReason =
  | 'MALFORMED'
  | 'ISSUER_NOT_ALLOWED'
  | 'AUDIENCE_NOT_ALLOWED'
  | 'ALGORITHM_NOT_ALLOWED'
  | 'UNKNOWN_KEY'
  | 'SIGNATURE_INVALID'
  | 'STALE'
  | 'ISSUED_IN_FUTURE'
  | 'NOT_YET_VALID'
  | 'EXPIRED'
  | 'NONCE_MISMATCH'
  | 'IDENTITY_MISMATCH'
  | 'ISSUER_UNAVAILABLE';

const CODES: Record<OidcFailureReason, ErrorCode> = {
  MALFORMED: 'INVALID_INPUT',
  ISSUER_NOT_ALLOWED: 'INVALID_INPUT',
  AUDIENCE_NOT_ALLOWED: 'INVALID_INPUT',
  ALGORITHM_NOT_ALLOWED: 'INVALID_INPUT',
  UNKNOWN_KEY: 'INVALID_INPUT',
  SIGNATURE_INVALID: 'INVALID_INPUT',
  STALE: 'INVALID_INPUT',
  ISSUED_IN_FUTURE: 'INVALID_INPUT',
  NOT_YET_VALID: 'INVALID_INPUT',
  EXPIRED: 'INVALID_INPUT',
  NONCE_MISMATCH: 'UNAUTHORIZED',
  IDENTITY_MISMATCH: 'UNAUTHORIZED',
  ISSUER_UNAVAILABLE: 'UNAVAILABLE',
};

/** Messages never include the token or its claims. */
export function oidcFailure(reason: OidcFailureReason, message: string, cause?: unknown): AppError {
  return new AppError(CODES[reason], `oidcToken: ${message}`, { reason }, cause === undefined ? undefined : { cause });
}
