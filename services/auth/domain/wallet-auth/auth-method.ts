/** The credential types of an embedded-wallet account (interface "AuthMethod"). */
export const AUTH_METHOD_TYPES = ['PASSKEY', 'OAUTH', 'EMAIL_OTP', 'SMS_OTP'] as const;
export type AuthMethodType = (typeof AUTH_METHOD_TYPES)[number];

export function isAuthMethodType(value: unknown): value is AuthMethodType {
  return typeof value === 'string' && (AUTH_METHOD_TYPES as readonly string[]).includes(value);
}

export type OtpChannel = 'EMAIL' | 'SMS';

export function otpChannelOf(type: AuthMethodType): OtpChannel | undefined {
  if (type === 'EMAIL_OTP') return 'EMAIL';
  if (type === 'SMS_OTP') return 'SMS';
  return undefined;
}

/** The OTP challenge currently bound to an OTP credential (at most one: a re-issue replaces it). */
export interface OtpChallenge {
  challengeId: string;
  /** The HPKE target private key, sealed with the storage key (associated data: challengeId). */
  sealedTargetKey: string;
  /** The expected code, sealed the same way. */
  sealedCode: string;
  issuedAt: string;
  expiresAt: string;
  attempts: number;
}

export interface PasskeyKey {
  /** COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
}

export interface OauthIdentity {
  iss: string;
  aud: string;
  sub: string;
}

export interface Credential {
  id: string;
  platformId: string;
  accountId: string;
  type: AuthMethodType;
  nickname: string;
  state: 'ACTIVE' | 'REVOKED';
  /** PASSKEY: base64url WebAuthn credential id. */
  credentialId?: string;
  passkey?: PasskeyKey;
  oauth?: OauthIdentity;
  otp?: OtpChallenge;
  /** When the last OTP was issued (kept after it is used up: the re-issue limit counts from it). */
  otpIssuedAt?: string;
  createdAt: string;
  updatedAt: string;
}

/** The REST AuthMethod view of a credential. */
export interface AuthMethodView {
  id: string;
  accountId: string;
  type: AuthMethodType;
  nickname: string;
  credentialId?: string;
  otpEncryptionTargetBundle?: string;
  createdAt: string;
  updatedAt: string;
}

export function authMethodView(credential: Credential, otpEncryptionTargetBundle?: string): AuthMethodView {
  return {
    id: credential.id,
    accountId: credential.accountId,
    type: credential.type,
    nickname: credential.nickname,
    ...(credential.type === 'PASSKEY' && credential.credentialId ? { credentialId: credential.credentialId } : {}),
    ...(otpEncryptionTargetBundle ? { otpEncryptionTargetBundle } : {}),
    createdAt: credential.createdAt,
    updatedAt: credential.updatedAt,
  };
}

export const ALREADY_EXISTS_CODE = {
  EMAIL_OTP: 'EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS',
  SMS_OTP: 'SMS_OTP_CREDENTIAL_ALREADY_EXISTS',
  PASSKEY: 'PASSKEY_CREDENTIAL_ALREADY_EXISTS',
  OAUTH: 'INVALID_INPUT',
} as const;
