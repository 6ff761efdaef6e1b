import type { LoginSecurity } from '../domain/sca-lockout';

export type ScaFactorKind = 'SMS_OTP' | 'TOTP' | 'PASSKEY';

/** An enrolled TOTP or passkey factor (SMS_OTP is implicit: the verified phone). */
export interface ScaFactorRecord {
  id: string;
  platformId: string;
  customerId: string;
  factor: 'TOTP' | 'PASSKEY';
  credentialId?: string;
  name?: string;
  /** TOTP: the secret (hex) sealed by the PII key, bound to this record's id. */
  sealedSecret?: string;
  /** TOTP: the last time step accepted; a code of that step or earlier is refused. */
  lastUsedStep?: number;
  /** TOTP: salted hashes of the unused recovery codes. */
  recoveryCodeHashes?: string[];
  recoverySalt?: string;
  /** PASSKEY: COSE public key (base64url) and signature counter. */
  publicKey?: string;
  counter?: number;
  createdAt: string;
}

/** An enrollment under way: TOTP keyed by the hash of its secret, PASSKEY by its challenge. */
export interface ScaEnrollment {
  id: string;
  platformId: string;
  customerId: string;
  factor: 'TOTP' | 'PASSKEY';
  challengeHex?: string;
  expiresAt: string;
}

/** One challenge to satisfy: a login, a trust change, or a payment (bound to amount and payee). */
export interface ScaChallengeRecord {
  id: string;
  platformId: string;
  customerId: string;
  purpose: string;
  /** What the proof authorizes; a proof is checked against the binding it is presented for. */
  binding: string;
  factor: ScaFactorKind;
  availableFactors: ScaFactorKind[];
  /** SMS_OTP: salted hash of the code sent. */
  codeHash?: string;
  salt?: string;
  sentAt?: string;
  /** PASSKEY: the challenge (hex) the assertion signs. */
  challengeHex?: string;
  expiresAt: string;
  /** Proofs evaluated so far (claimed before each evaluation). */
  attempts: number;
  summary?: string;
}

export interface ScaResetRecord {
  id: string;
  platformId: string;
  customerId: string;
  factor: ScaFactorKind;
  status: 'INITIATED' | 'PENDING_REVIEW' | 'LIVENESS_PASSED' | 'COMPLETED' | 'REJECTED' | 'EXPIRED';
  livenessToken: string;
  expiresAt: string;
  createdAt: string;
  completedAt?: string;
}

export interface ScaStore {
  factors: {
    list(platformId: string, customerId: string): Promise<ScaFactorRecord[]>;
    insert(factor: ScaFactorRecord): Promise<void>;
    /** Deletes the customer's factor with this credential id (or, without one, this kind); false when none. */
    remove(platformId: string, customerId: string, match: { credentialId?: string; factor?: string }): Promise<boolean>;
    /** Records `step` as used unless a step at or after it was: true exactly once per step. */
    useTotpStep(id: string, step: number): Promise<boolean>;
    /** Removes one recovery code hash: true exactly once. */
    useRecoveryCode(id: string, hash: string): Promise<boolean>;
    setCounter(id: string, counter: number): Promise<void>;
  };
  enrollments: {
    put(enrollment: ScaEnrollment): Promise<void>;
    /** Removes and returns the enrollment: exactly one caller gets it. */
    take(id: string): Promise<ScaEnrollment | null>;
    find(id: string): Promise<ScaEnrollment | null>;
  };
  challenges: {
    insert(challenge: ScaChallengeRecord): Promise<void>;
    find(id: string): Promise<ScaChallengeRecord | null>;
    /** Claims one evaluation if fewer than `max` were: false when the challenge is spent. */
    claimAttempt(id: string, max: number): Promise<boolean>;
    /** Deletes the challenge: true exactly once (single use). */
    consume(id: string): Promise<boolean>;
    /** Records a re-send unless one was after `sentBefore`. */
    markResent(id: string, sentAt: string, sentBefore: string): Promise<boolean>;
    replaceCode(id: string, codeHash: string, salt: string): Promise<void>;
    /** Inserts or replaces (a customer's one login challenge per factor). */
    put(challenge: ScaChallengeRecord): Promise<void>;
  };
  sessions: {
    put(platformId: string, customerId: string, startedAt: string, expiresAt: string): Promise<void>;
    find(platformId: string, customerId: string): Promise<{ startedAt: string; expiresAt: string } | null>;
  };
  security: {
    find(platformId: string, customerId: string): Promise<LoginSecurity>;
    /** Writes `next` only if the stored failed count is still `failedAttempts`. */
    replace(platformId: string, customerId: string, failedAttempts: number, next: LoginSecurity): Promise<boolean>;
  };
  resets: {
    insert(reset: ScaResetRecord): Promise<void>;
    find(platformId: string, customerId: string, id: string): Promise<ScaResetRecord | null>;
    countSince(platformId: string, customerId: string, since: string): Promise<number>;
    /** Moves the reset from one of `from` to `to`: false when it was not in one. */
    transition(id: string, from: ScaResetRecord['status'][], to: ScaResetRecord['status'], set?: Partial<ScaResetRecord>): Promise<boolean>;
  };
  trusted: {
    isTrusted(platformId: string, externalAccountId: string): Promise<boolean>;
    set(platformId: string, customerId: string, externalAccountId: string, trusted: boolean, now: string): Promise<void>;
  };
}
