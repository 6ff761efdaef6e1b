import type { LoginSecurity } from '../domain/sca-lockout';
import type { ScaFactorKind } from '../domain/sca-factors';

export type { ScaFactorKind } from '../domain/sca-factors';

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
  /** When a proof completed the challenge, and that proof's digest (a repeat of it answers the same success). */
  completedAt?: string;
  completedProof?: string;
  /** The digest of the proof being evaluated, and since when: one evaluation at a time. */
  evaluatingProof?: string;
  evaluatingSince?: string;
  /** Digests of proofs that were evaluated and wrong (a repeat answers the same refusal, uncounted). */
  failedProofs?: string[];
}

export type EvaluationOutcome = 'COMPLETED' | 'FAILED' | 'RELEASED';

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

/** Whether a customer trusts one of its external accounts as a payee, as of `now`. */
export interface BeneficiaryTrust {
  platformId: string;
  customerId: string;
  externalAccountId: string;
  trusted: boolean;
  now: string;
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
    /**
     * Claims the evaluation of the proof `proof` (a digest) if the challenge is not completed, fewer
     * than `max` proofs were evaluated, and no other evaluation began after `staleBefore`: false otherwise.
     */
    claimEvaluation(
      id: string,
      claim: { max: number; proof: string; now: string; staleBefore: string },
    ): Promise<boolean>;
    /**
     * Ends the evaluation of `proof`: COMPLETED marks the challenge used by it (true exactly once),
     * FAILED records it as wrong, RELEASED gives the attempt back (it was not evaluated).
     */
    endEvaluation(id: string, proof: string, outcome: EvaluationOutcome, now: string): Promise<boolean>;
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
    /** Writes `next` (version + 1) only if the stored state is still `current`'s version. */
    replace(platformId: string, customerId: string, current: LoginSecurity, next: LoginSecurity): Promise<boolean>;
  };
  resets: {
    insert(reset: ScaResetRecord): Promise<void>;
    find(platformId: string, customerId: string, id: string): Promise<ScaResetRecord | null>;
    countSince(platformId: string, customerId: string, since: string): Promise<number>;
    /** Moves the reset from one of `from` to `to`: false when it was not in one. */
    transition(
      id: string,
      from: ScaResetRecord['status'][],
      to: ScaResetRecord['status'],
      set?: Partial<ScaResetRecord>,
    ): Promise<boolean>;
  };
  trusted: {
    isTrusted(platformId: string, externalAccountId: string): Promise<boolean>;
    set(trust: BeneficiaryTrust): Promise<void>;
  };
}
