import { decodeJwt, decodeProtectedHeader, errors, jwtVerify, type JWTPayload } from 'jose';
import { AppError } from '../../../../lib/errors';
import { checkIssuerAllowed, checkOidcClaims, type OidcIdentity, type VerifiedOidcToken } from './check-oidc-claims';
import { createIssuerKeyCache, type FetchLike } from './create-issuer-key-cache';
import { oidcFailure } from './oidc-failure';

export type { OidcIdentity, VerifiedOidcToken } from './check-oidc-claims';
export type { FetchLike } from './create-issuer-key-cache';
export type { OidcFailureReason } from './oidc-failure';
export { oidcNonceFor } from './oidc-nonce-for';

export const OIDC_ALGORITHMS = ['RS256', 'ES256'];

export interface OidcVerifierOptions {
  fetchImpl?: FetchLike;
  /** Milliseconds since the epoch. */
  now?: () => number;
  /** Default 10 minutes. */
  cacheTtlMs?: number;
  /** Default 30 seconds. */
  refetchCooldownMs?: number;
  /** Tolerance for `iat` in the future, `exp` and `nbf`; default 5 seconds. */
  clockSkewMs?: number;
  /** Default 5 seconds. */
  fetchTimeoutMs?: number;
}

export interface OidcVerifyOptions {
  allowedIssuers: readonly string[];
  allowedAudiences: readonly string[];
  /** `sandbox` skips the issuer signature and fetches nothing; every claim rule still applies. */
  mode: 'live' | 'sandbox';
  /** Checked whenever given; required for a sandbox verify (see `oidcNonceFor`). */
  expectedNonce?: string;
  /** On verify: the `iss`, `aud` and `sub` stored with the credential. */
  expectedIdentity?: OidcIdentity;
}

export interface OidcVerifier {
  verify(token: string, options: OidcVerifyOptions): Promise<VerifiedOidcToken>;
}

const MAX_TOKEN_CHARS = 16_384;

function decodeShape(token: unknown): JWTPayload {
  if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_CHARS) {
    throw oidcFailure('MALFORMED', 'must be a compact JWT');
  }
  try {
    decodeProtectedHeader(token);
    return decodeJwt(token);
  } catch (err) {
    throw oidcFailure('MALFORMED', 'is not a well-formed JWT', err);
  }
}

function mapJoseError(err: unknown): unknown {
  if (err instanceof AppError || !(err instanceof errors.JOSEError)) return err;
  if (err instanceof errors.JWKSNoMatchingKey) {
    return oidcFailure('UNKNOWN_KEY', 'signed with a key the issuer does not publish', err);
  }
  if (err instanceof errors.JWSSignatureVerificationFailed) {
    return oidcFailure('SIGNATURE_INVALID', 'signature is invalid', err);
  }
  if (err instanceof errors.JOSEAlgNotAllowed) {
    return oidcFailure('ALGORITHM_NOT_ALLOWED', 'signing algorithm is not allowed', err);
  }
  if (err instanceof errors.JWTExpired) return oidcFailure('EXPIRED', 'token has expired', err);
  if (err instanceof errors.JWTClaimValidationFailed && err.claim === 'nbf') {
    return oidcFailure('NOT_YET_VALID', 'token is not yet valid', err);
  }
  return oidcFailure('MALFORMED', 'could not be verified', err);
}

export function createOidcVerifier(options: OidcVerifierOptions = {}): OidcVerifier {
  const now = options.now ?? Date.now;
  const clockSkewMs = options.clockSkewMs ?? 5_000;
  const keyCache = createIssuerKeyCache({
    fetchImpl: options.fetchImpl ?? (fetch as FetchLike),
    now,
    cacheTtlMs: options.cacheTtlMs ?? 10 * 60_000,
    refetchCooldownMs: options.refetchCooldownMs ?? 30_000,
    fetchTimeoutMs: options.fetchTimeoutMs ?? 5_000,
  });

  return {
    async verify(token, verifyOptions) {
      const { mode, expectedNonce } = verifyOptions;
      if (mode === 'sandbox' && verifyOptions.expectedIdentity && expectedNonce === undefined) {
        // Without a signature the nonce is the only thing binding the token to the client key.
        throw new AppError('INTERNAL_ERROR', 'sandbox OIDC verify requires expectedNonce');
      }
      let payload = decodeShape(token);
      // Check the issuer before any fetch so a token cannot make us call an arbitrary URL.
      const issuer = checkIssuerAllowed(payload, verifyOptions.allowedIssuers);
      if (mode === 'live') {
        try {
          ({ payload } = await jwtVerify(token, keyCache.resolverFor(issuer), {
            algorithms: OIDC_ALGORITHMS,
            currentDate: new Date(now()),
            clockTolerance: Math.ceil(clockSkewMs / 1000),
          }));
        } catch (err) {
          throw mapJoseError(err);
        }
      } else if (mode !== 'sandbox') {
        throw new AppError('INTERNAL_ERROR', 'OIDC verify mode must be live or sandbox');
      }
      return checkOidcClaims(payload, { ...verifyOptions, nowMs: now(), clockSkewMs });
    },
  };
}
