import type { JWTPayload } from 'jose';
import { oidcFailure } from './oidc-failure';

export const MAX_TOKEN_AGE_SECONDS = 60;

export interface OidcIdentity {
  iss: string;
  aud: string;
  sub: string;
}

export interface VerifiedOidcToken extends OidcIdentity {
  email?: string;
  /** Seconds since the epoch, as in the token. */
  iat: number;
  nonce?: string;
}

export interface OidcClaimRules {
  allowedIssuers: readonly string[];
  allowedAudiences: readonly string[];
  expectedNonce?: string;
  expectedIdentity?: OidcIdentity;
  nowMs: number;
  clockSkewMs: number;
}

function audiences(payload: JWTPayload): string[] {
  const { aud } = payload;
  if (typeof aud === 'string') return [aud];
  if (Array.isArray(aud) && aud.every((a) => typeof a === 'string')) return aud;
  return [];
}

function numericClaim(payload: JWTPayload, name: 'iat' | 'exp' | 'nbf', required: boolean): number | undefined {
  const value = payload[name];
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw oidcFailure('MALFORMED', `"${name}" must be a number`);
  }
  return value;
}

export function checkIssuerAllowed(payload: JWTPayload, allowedIssuers: readonly string[]): string {
  if (typeof payload.iss !== 'string' || !allowedIssuers.includes(payload.iss)) {
    throw oidcFailure('ISSUER_NOT_ALLOWED', 'issuer is not allowed');
  }
  return payload.iss;
}

/** Claim rules shared by live and sandbox mode (Authentication rules 6 and 7). */
export function checkOidcClaims(payload: JWTPayload, rules: OidcClaimRules): VerifiedOidcToken {
  const iss = checkIssuerAllowed(payload, rules.allowedIssuers);
  const tokenAudiences = audiences(payload);
  const aud = tokenAudiences.find((a) => rules.allowedAudiences.includes(a));
  if (aud === undefined) throw oidcFailure('AUDIENCE_NOT_ALLOWED', 'audience is not allowed');
  if (typeof payload.sub !== 'string' || payload.sub === '') throw oidcFailure('MALFORMED', '"sub" is missing');

  const { nowMs, clockSkewMs } = rules;
  const iat = numericClaim(payload, 'iat', true)!;
  const exp = numericClaim(payload, 'exp', true)!;
  const nbf = numericClaim(payload, 'nbf', false);
  if (iat * 1000 > nowMs + clockSkewMs) throw oidcFailure('ISSUED_IN_FUTURE', 'token is issued in the future');
  // `iat` has whole-second resolution, so the age is compared in whole seconds, without skew.
  if (Math.floor(nowMs / 1000) - iat > MAX_TOKEN_AGE_SECONDS) {
    throw oidcFailure('STALE', 'token is older than 60 seconds; get a fresh one');
  }
  if (exp * 1000 <= nowMs - clockSkewMs) throw oidcFailure('EXPIRED', 'token has expired');
  if (nbf !== undefined && nbf * 1000 > nowMs + clockSkewMs) {
    throw oidcFailure('NOT_YET_VALID', 'token is not yet valid');
  }

  const expected = rules.expectedIdentity;
  if (expected && (expected.iss !== iss || expected.sub !== payload.sub || !tokenAudiences.includes(expected.aud))) {
    throw oidcFailure('IDENTITY_MISMATCH', 'token identity does not match the credential');
  }
  const nonce = typeof payload.nonce === 'string' ? payload.nonce : undefined;
  if (rules.expectedNonce !== undefined && nonce !== rules.expectedNonce) {
    throw oidcFailure('NONCE_MISMATCH', 'token nonce does not match the client public key');
  }
  const email = typeof payload.email === 'string' ? payload.email : undefined;
  return {
    iss,
    aud: expected ? expected.aud : aud,
    sub: payload.sub,
    iat,
    ...(email !== undefined && { email }),
    ...(nonce !== undefined && { nonce }),
  };
}
