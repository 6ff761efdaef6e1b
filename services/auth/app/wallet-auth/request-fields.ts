import { AppError } from '../../../../lib/errors';
import { isId } from '../../../../lib/ids';
import { isAuthMethodType, type AuthMethodType } from '../../domain/wallet-auth/auth-method';
import { isP256PublicKey } from '../../domain/wallet-crypto/p256-keys';

export type Body = Record<string, unknown>;

export function bodyOf(value: unknown): Body {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Body) : {};
}

function invalid(field: string, message: string): AppError {
  return AppError.invalidInput(`${field} ${message}`, [{ field, message }]);
}

export function requireString(body: Body, field: string, maxLength = 16_384): string {
  const value = body[field];
  if (typeof value !== 'string' || value.length === 0) throw invalid(field, 'is required');
  if (value.length > maxLength) throw invalid(field, `must be at most ${maxLength} characters`);
  return value;
}

export function requireInternalAccountId(value: unknown, field = 'accountId'): string {
  if (!isId('InternalAccount', value)) {
    throw AppError.invalidInput(`${field} must be an InternalAccount:<uuid> id`, [{
      field,
      message: 'must be an InternalAccount:<uuid> id',
      constraint: { pattern: '^InternalAccount:[0-9a-fA-F-]{36}$' },
    }]);
  }
  return value;
}

export function requireType(body: Body): AuthMethodType {
  const type = body.type;
  if (!isAuthMethodType(type)) {
    throw AppError.invalidInput('type must be one of PASSKEY, OAUTH, EMAIL_OTP, SMS_OTP', [
      { field: 'type', constraint: { enum: ['PASSKEY', 'OAUTH', 'EMAIL_OTP', 'SMS_OTP'] } },
    ]);
  }
  return type;
}

/** A client P-256 public key, hex SEC1 (uncompressed as documented; compressed accepted). */
export function requireClientPublicKey(body: Body, field = 'clientPublicKey'): string {
  const value = requireString(body, field, 200);
  if (!isP256PublicKey(value)) throw invalid(field, 'must be a hex P-256 public key (04 + 128 hex characters)');
  return value;
}

// Letters, numbers, spaces, and . _ - ' ( ) as the reference allows for passkey nicknames.
const NICKNAME = /^[\p{L}\p{N} ._'()-]{1,100}$/u;

export function requireNickname(body: Body): string {
  const value = typeof body.nickname === 'string' ? body.nickname.trim() : '';
  if (!NICKNAME.test(value)) throw invalid('nickname', "must be 1-100 letters, numbers, spaces or . _ - ' ( )");
  return value;
}

export function requireObject(body: Body, field: string): Body {
  const value = body[field];
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw invalid(field, 'must be an object');
  return value as Body;
}
