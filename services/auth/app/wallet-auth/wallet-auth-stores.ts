import type { AuthMethodType, Credential, OtpChallenge } from '../../domain/wallet-auth/auth-method';
import type { OperationRun, SignedRetryRecord } from '../../domain/wallet-auth/signed-retry-record';
import type { WalletSession } from '../../domain/wallet-auth/wallet-session';

/** Storage ports of the wallet-auth use cases; store/ implements them on the DocumentStore. */

/** ISSUED -> CLAIMED: the challenge `id`, the proof that claims it, and the one operation it runs at `now`. */
export interface RetryClaim {
  id: string;
  claim: NonNullable<SignedRetryRecord['claim']>;
  run: OperationRun;
  now: Date;
  contextPatch?: Record<string, unknown>;
}

export interface SignedRetryStore {
  insert(record: SignedRetryRecord): Promise<void>;
  /** Challenges still ISSUED and unexpired at `now`, of the platform (and of one wallet: `context.accountId`). */
  countPending(platformId: string, accountId: string | undefined, now: Date): Promise<number>;
  /** Forgets an ISSUED challenge (one issued over a quota). */
  removeIssued(id: string): Promise<void>;
  /** Inserts an unsigned operation's record unless one with the same dedupKey exists; answers the stored one. */
  insertOrFind(record: SignedRetryRecord & { dedupKey: string }): Promise<SignedRetryRecord>;
  find(platformId: string, id: string): Promise<SignedRetryRecord | null>;
  findByDedupKey(dedupKey: string): Promise<SignedRetryRecord | null>;
  /** ISSUED and unexpired -> CLAIMED with its one operation, in one conditional write; null when it lost. */
  claim(claim: RetryClaim): Promise<SignedRetryRecord | null>;
  /** PENDING -> SETTLED or FAILED for that run; null when already settled. */
  settle(
    id: string,
    runId: string,
    outcome: Pick<OperationRun, 'state' | 'result' | 'error' | 'settledAt'>,
  ): Promise<SignedRetryRecord | null>;
  /** Claimed operations still PENDING at the wallet provider. */
  findPending(limit: number): Promise<SignedRetryRecord[]>;
  /** Forgets challenges that expired unused, and settled operations, before `cutoff`; answers how many. */
  /**
   * Forgets challenges never used that expired before `unusedBefore`, and operations settled before
   * `settledBefore` (identical re-sends of those are no longer answered). Answers how many went.
   */
  purge(horizons: { unusedBefore: Date; settledBefore: Date }): Promise<number>;
}

/** A unique rule a new credential would break. */
export class CredentialExistsError extends Error {
  constructor(readonly type: AuthMethodType) {
    super(`an active ${type} credential with this identity exists`);
    this.name = 'CredentialExistsError';
  }
}

export interface CredentialStore {
  /** Throws CredentialExistsError when a unique rule is broken; resolves false when the id exists. */
  insert(credential: Credential): Promise<boolean>;
  find(platformId: string, id: string): Promise<Credential | null>;
  listActive(platformId: string, accountId: string): Promise<Credential[]>;
  findActiveByType(platformId: string, accountId: string, type: AuthMethodType): Promise<Credential | null>;
  findActivePasskey(credentialId: string): Promise<Credential | null>;
  /** Replaces the OTP challenge unless the last one was issued after `issuedBefore`. */
  replaceOtp(id: string, otp: OtpChallenge, issuedBefore: Date): Promise<Credential | null>;
  /** Withdraws an OTP that never went out, so a new one may be asked for at once. */
  withdrawOtp(id: string, challengeId: string): Promise<void>;
  /** Counts one attempt against this challenge if attempts remain; null otherwise. */
  countOtpAttempt(id: string, challengeId: string, maxAttempts: number): Promise<Credential | null>;
  /** Removes the challenge once its code was used; false when it was already gone. */
  consumeOtp(id: string, challengeId: string): Promise<boolean>;
  /** Compare-and-set of the WebAuthn signature counter. */
  advancePasskeyCounter(id: string, from: number, to: number): Promise<boolean>;
  /** ACTIVE -> REVOKED; false when it was not active. */
  revoke(id: string, now: Date): Promise<boolean>;
  reactivate(id: string, now: Date): Promise<void>;
  setNickname(id: string, nickname: string, now: Date): Promise<void>;
  findActiveEmailOtpByEmail(platformId: string, email: string): Promise<Credential[]>;
}

export interface SessionStore {
  /** Inserts unless a session of the same operation exists; answers the stored session. */
  insertOnce(session: WalletSession): Promise<WalletSession>;
  find(platformId: string, id: string): Promise<WalletSession | null>;
  findBySigningKey(signingPublicKey: string): Promise<WalletSession[]>;
  listActive(platformId: string, accountId: string, now: Date): Promise<WalletSession[]>;
  /** ACTIVE -> REVOKED; false when it was not active. */
  revoke(id: string, now: Date): Promise<boolean>;
  revokeForCredential(credentialId: string, now: Date): Promise<number>;
}

export interface Wallet {
  accountId: string;
  platformId: string;
  customerEmail?: string;
  customerPhone?: string;
  privateEnabled: boolean;
  /** Maintained with each credential change so the last one cannot be revoked concurrently. */
  activeCredentials: number;
  createdAt: string;
  updatedAt: string;
}

export interface WalletStore {
  /** Creates the wallet unless it exists; answers whether it was created. */
  create(wallet: Wallet): Promise<boolean>;
  find(platformId: string, accountId: string): Promise<Wallet | null>;
  setPrivacy(accountId: string, privateEnabled: boolean, now: Date): Promise<void>;
  setCustomerEmail(accountId: string, email: string, now: Date): Promise<void>;
  addCredentials(accountId: string, delta: number): Promise<void>;
  /** Decrements only while more than one credential remains; false otherwise. */
  removeCredentialUnlessLast(accountId: string): Promise<boolean>;
}
