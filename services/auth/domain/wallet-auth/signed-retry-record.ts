import type { ErrorCode } from '../../../../lib/errors';

/** Who may sign the retry of a challenge. */
export type SignerRule =
  /**
   * An active, unexpired session of one of these accounts (optionally: not of that credential, or exactly that
   * session).
   */
  | { kind: 'session'; accountIds: string[]; excludeCredentialId?: string; sessionId?: string }
  /** Exactly this key (compressed hex): the key sealed in an OTP bundle. */
  | { kind: 'key'; publicKey: string }
  /** A WebAuthn assertion of this passkey over payloadToSign (the passkey challenge). */
  | { kind: 'assertion'; credentialId: string }
  /** Nothing to sign: an operation that needs no signature (first credential, OAUTH verify). */
  | { kind: 'none' };

export interface OperationError {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

/** The one operation a claimed challenge started. */
export interface OperationRun {
  id: string;
  state: 'PENDING' | 'SETTLED' | 'FAILED';
  /** Settled by the caller of CompleteSignedRetry (another service), not by the wallet provider. */
  external: boolean;
  result?: Record<string, unknown>;
  error?: OperationError;
  startedAt: string;
  settledAt?: string;
}

export interface SignedRetryRecord {
  id: string;
  platformId: string;
  operation: string;
  targetId: string;
  /** Hash of the challenged request; '' when the body is first seen on the retry (passkey verify). */
  requestHash: string;
  type?: string;
  payloadToSign: string;
  signer: SignerRule;
  /** Operation data fixed when the challenge was issued (ids to create, keys to seal to). */
  context: Record<string, unknown>;
  state: 'ISSUED' | 'CLAIMED';
  issuedAt: string;
  expiresAt: string;
  claim?: { proof: string; requestHash: string; claimedAt: string };
  run?: OperationRun;
  /** Unsigned operations: identical re-sends find the record by this key. */
  dedupKey?: string;
}

/** One arriving retry: its request identity and its proof (the stamp, or the body hash for assertions). */
export interface RetryAttempt {
  operation: string;
  targetId: string;
  requestHash: string;
  proof: string;
}

export type RetryVerdict =
  /** Body or request differs from the challenged one. */
  | 'BODY_MISMATCH'
  | 'EXPIRED'
  /** Unclaimed and matching: check the signature, then claim. */
  | 'VERIFY_AND_CLAIM'
  /** Already claimed by this identical retry: answer the operation's state. */
  | 'CORRELATE'
  /** Already claimed by a different request. */
  | 'ALREADY_USED';

export function judgeRetry(record: SignedRetryRecord, attempt: RetryAttempt, now: Date): RetryVerdict {
  const sameRequest = record.operation === attempt.operation && record.targetId === attempt.targetId;
  if (record.state === 'CLAIMED') {
    const claim = record.claim;
    const identical = sameRequest && claim?.proof === attempt.proof && claim.requestHash === attempt.requestHash;
    return identical ? 'CORRELATE' : 'ALREADY_USED';
  }
  if (!sameRequest || (record.requestHash !== '' && record.requestHash !== attempt.requestHash)) return 'BODY_MISMATCH';
  if (Date.parse(record.expiresAt) <= now.getTime()) return 'EXPIRED';
  return 'VERIFY_AND_CLAIM';
}
