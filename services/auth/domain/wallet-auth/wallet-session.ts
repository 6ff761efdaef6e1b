import type { AuthMethodType } from './auth-method';

/** A session minted from a credential; only its signing public key is kept. */
export interface WalletSession {
  id: string;
  platformId: string;
  accountId: string;
  credentialId: string;
  type: AuthMethodType;
  nickname: string;
  /** Compressed P-256 public key, lowercase hex: the key stamps of this session carry. */
  signingPublicKey: string;
  state: 'ACTIVE' | 'REVOKED';
  expiresAt: string;
  createdAt: string;
  updatedAt: string;
  /** The operation that created it (applying the operation twice finds this session). */
  operationId: string;
}

/** Revoked or expired sessions never authorize anything. */
export function isSessionActive(session: Pick<WalletSession, 'state' | 'expiresAt'>, now: Date): boolean {
  return session.state === 'ACTIVE' && Date.parse(session.expiresAt) > now.getTime();
}

export interface AuthSessionView {
  id: string;
  accountId: string;
  type: AuthMethodType;
  nickname: string;
  encryptedSessionSigningKey?: string;
  expiresAt: string;
  createdAt: string;
  updatedAt: string;
}

export function authSessionView(session: WalletSession, encryptedSessionSigningKey?: string): AuthSessionView {
  return {
    id: session.id,
    accountId: session.accountId,
    type: session.type,
    nickname: session.nickname,
    ...(encryptedSessionSigningKey ? { encryptedSessionSigningKey } : {}),
    expiresAt: session.expiresAt,
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
  };
}
