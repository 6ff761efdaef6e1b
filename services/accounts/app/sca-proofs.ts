import { createHash, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../../lib/errors';
import type { Customer } from '../domain/customer';
import { scaRequired } from '../domain/sca-region';
import { satisfiesStep, type FactorCategory } from '../domain/sca-factors';
import { afterSettled, isLocked, withReservation, type LoginSecurity } from '../domain/sca-lockout';
import {
  assertionCredentialId,
  assertionHasUserVerification,
  assertionOptions,
  verifiedAssertion,
  type RelyingParty,
} from '../domain/sca-passkey';
import { currentTotpStep, totpStepOf } from '../domain/sca-totp';
import type { AccountsStore } from './accounts-store';
import type { ContactMessenger } from './contact-verification';
import type { PiiSealer } from './service-ports';
import type { ScaChallengeRecord, ScaFactorKind, ScaFactorRecord, ScaStore } from './sca-store';

export interface ScaSettings {
  sandbox: boolean;
  /** How long an SMS code or login/trust challenge stays valid. */
  challengeTtlMs: number;
  /** Proofs one challenge evaluates before it is spent. */
  maxAttempts: number;
  /** Minimum time between two SMS codes of one challenge. */
  resendIntervalMs: number;
  sessionTtlMs: number;
  resetTtlMs: number;
  relyingParty: RelyingParty;
  totpIssuer: string;
}

export interface ScaProof {
  code?: string;
  passkeyAssertion?: unknown;
  origin?: string;
}

export interface ScaDeps {
  store: AccountsStore;
  sca: ScaStore;
  sealer: PiiSealer;
  messenger: ContactMessenger;
  settings: ScaSettings;
  clock: () => Date;
}

export const SANDBOX_SCA_CODE = '123456';
const RECOVERY_CODE = /^[A-Za-z0-9]{4}-[A-Za-z0-9]{4}-[A-Za-z0-9]{4}$/;
const hashOf = (salt: string, code: string) => createHash('sha256').update(`${salt}:${code}`).digest('hex');
const sameHash = (a: string, b: string) => timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));
export const recoveryHash = (salt: string, code: string) => hashOf(salt, code.toUpperCase().replace(/[^A-Z0-9]/g, ''));

/** A digest of the proof as presented for one challenge: the same request gives the same digest. */
const proofDigest = (challengeId: string, proof: ScaProof) =>
  createHash('sha256')
    .update(JSON.stringify([challengeId, proof.code ?? null, proof.passkeyAssertion ?? null, proof.origin ?? null]))
    .digest('hex');

const wrongProof = (proof: ScaProof) =>
  invalidProof(
    proof.passkeyAssertion !== undefined ? 'the passkey assertion does not verify' : 'is not a valid code',
    proof.passkeyAssertion !== undefined ? 'passkeyAssertion' : 'code',
  );

export function invalidProof(message: string, field = 'code'): AppError {
  return AppError.invalidInput(message, [{ field, message }]);
}

function lockedError(state: LoginSecurity): AppError {
  return new AppError(
    'ACCOUNT_LOCKED',
    state.suspended
      ? "The customer's login is suspended after too many failed attempts: a password reset clears it"
      : "The customer's login is locked after too many failed attempts",
    {
      suspended: state.suspended,
      failedAttempts: state.failedAttempts,
      ...(state.lockedUntil ? { lockedUntil: state.lockedUntil } : {}),
    },
  );
}

/** The proofs every SCA flow shares: challenges, their SMS codes, TOTP and passkey checks, lockout. */
/** A customer's proof for the challenge `challengeId` issued for `binding` (and the steps before it). */
export interface ScaProofCheck {
  customer: Customer;
  challengeId: string | undefined;
  binding: string;
  proof: ScaProof;
  earlierChallengeIds?: string[];
}

export function createScaProofs(deps: ScaDeps) {
  const { sca, settings } = deps;
  const evaluations = createEvaluations(deps);

  async function scaCustomer(platformId: string, customerId: string): Promise<Customer> {
    const customer = await deps.store.customers.find(platformId, customerId);
    if (!customer || customer.isDeleted) throw AppError.notFound('Customer', 'USER_NOT_FOUND');
    if (!scaRequired(customer)) {
      throw new AppError('CONFLICT', "Strong Customer Authentication is not required for this customer's region");
    }
    return customer;
  }

  const verifiedPhone = (
    c: Customer,
  ) => (c.contactVerification?.phone === 'VERIFIED' && c.phoneNumber ? c.phoneNumber : undefined);

  async function enrolled(c: Customer): Promise<{ factors: ScaFactorRecord[]; kinds: ScaFactorKind[] }> {
    const factors = await sca.factors.list(c.platformId, c.id);
    const kinds = new Set<ScaFactorKind>(verifiedPhone(c) ? ['SMS_OTP'] : []);
    for (const f of factors) kinds.add(f.factor);
    return { factors, kinds: (['SMS_OTP', 'TOTP', 'PASSKEY'] as const).filter((k) => kinds.has(k)) };
  }

  async function sendCode(
    c: Customer,
    challengeId: string,
    summary: string | undefined,
  ): Promise<{ codeHash: string; salt: string }> {
    const to = verifiedPhone(c);
    if (!to) throw new AppError('CONFLICT', 'The customer has no verified phone for SMS_OTP: verify it first');
    const code = settings.sandbox ? SANDBOX_SCA_CODE : String(randomInt(0, 1_000_000)).padStart(6, '0');
    const salt = randomBytes(16).toString('hex');
    await deps.messenger.send({
      channel: 'SMS',
      to,
      subject: 'Your authentication code',
      body: `${summary ? `${summary}. ` : ''}Your authentication code is ${code}. It expires in ${
        Math.max(1, Math.round(settings.challengeTtlMs / 60_000))
      } minutes.`,
      idempotencyKey: `sca:${challengeId}:${salt}`,
    });
    return { codeHash: hashOf(salt, code), salt };
  }

  /**
   * A new challenge. `availableFactors` are those the customer has among `allowed`; the code is sent
   * when SMS_OTP is the factor; a passkey challenge commits to the binding (dynamic linking).
   */
  async function issue(c: Customer, request: {
    id?: string;
    replace?: boolean;
    purpose: string;
    binding: string;
    factor?: ScaFactorKind;
    allowed: ScaFactorKind[];
    summary?: string;
    expiresAt?: string;
  }): Promise<{ challenge: ScaChallengeRecord; passkeyOptions?: Record<string, unknown> }> {
    const { factors, kinds } = await enrolled(c);
    const availableFactors = kinds.filter((k) => request.allowed.includes(k));
    const factor = request.factor ?? (availableFactors.includes('SMS_OTP') ? 'SMS_OTP' : availableFactors[0]);
    if (!factor || !availableFactors.includes(factor)) {
      throw invalidProof(
        factor
          ? `${factor} is not enrolled for this customer`
          : 'The customer has no factor enrolled for this challenge',
        'factor',
      );
    }
    const now = deps.clock();
    const id = request.id ?? `ScaChallenge:${randomUUID()}`;
    const challenge: ScaChallengeRecord = {
      id,
      platformId: c.platformId,
      customerId: c.id,
      purpose: request.purpose,
      binding: request.binding,
      factor,
      availableFactors,
      expiresAt: request.expiresAt ?? new Date(now.getTime() + settings.challengeTtlMs).toISOString(),
      attempts: 0,
      ...(request.summary ? { summary: request.summary } : {}),
    };
    let passkeyOptions: Record<string, unknown> | undefined;
    if (availableFactors.includes('PASSKEY') && (factor === 'PASSKEY' || request.factor === undefined)) {
      challenge.challengeHex = createHash('sha256').update(`${request.binding}|${randomBytes(32).toString('hex')}`)
        .digest('hex');
      const ids = factors.filter((f) => f.factor === 'PASSKEY').map((f) => f.credentialId!);
      passkeyOptions =
        (await assertionOptions(settings.relyingParty, challenge.challengeHex, ids)) as unknown as Record<
          string,
          unknown
        >;
    }
    if (factor === 'SMS_OTP') {
      Object.assign(challenge, await sendCode(c, id, request.summary), { sentAt: now.toISOString() });
    }
    await (request.replace ? sca.challenges.put(challenge) : sca.challenges.insert(challenge));
    return { challenge, passkeyOptions };
  }

  async function resend(c: Customer, challengeId: string): Promise<void> {
    const challenge = await sca.challenges.find(challengeId);
    if (!challenge || challenge.customerId !== c.id || challenge.platformId !== c.platformId) {
      throw new AppError('NOT_FOUND', 'Challenge not found');
    }
    if (challenge.factor !== 'SMS_OTP') {
      throw new AppError('CONFLICT', `A ${challenge.factor} challenge has no code to re-send`);
    }
    const now = deps.clock();
    if (Date.parse(challenge.expiresAt) <= now.getTime()) throw new AppError('CONFLICT', 'The challenge has expired');
    const sentBefore = new Date(now.getTime() - settings.resendIntervalMs).toISOString();
    if (!(await sca.challenges.markResent(challenge.id, now.toISOString(), sentBefore))) {
      const waitMs = Date.parse(challenge.sentAt ?? now.toISOString()) + settings.resendIntervalMs - now.getTime();
      throw new AppError('RATE_LIMITED', 'A code was sent moments ago; wait before asking for another', {
        retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
      });
    }
    // Only the code's hash is kept, so a fresh code replaces it under the same expiry.
    const sent = await sendCode(c, challenge.id, challenge.summary);
    await sca.challenges.replaceCode(challenge.id, sent.codeHash, sent.salt);
  }

  async function assertNotLocked(c: Customer): Promise<void> {
    const state = await sca.security.find(c.platformId, c.id);
    if (isLocked(state, deps.clock())) throw lockedError(state);
  }

  async function totpMatches(c: Customer, factors: ScaFactorRecord[], code: string): Promise<boolean> {
    const totp = factors.find((f) => f.factor === 'TOTP');
    if (!totp?.sealedSecret) return false;
    const now = deps.clock();
    const step = settings.sandbox && code === SANDBOX_SCA_CODE
      ? currentTotpStep(now)
      : totpStepOf(deps.sealer.open(totp.sealedSecret, totp.id), code, now);
    return step !== undefined && sca.factors.useTotpStep(totp.id, step);
  }

  async function recoveryMatches(factors: ScaFactorRecord[], code: string): Promise<boolean> {
    const totp = factors.find((f) => f.factor === 'TOTP');
    return !!totp?.recoverySalt && sca.factors.useRecoveryCode(totp.id, recoveryHash(totp.recoverySalt, code));
  }

  async function passkeyMatches(
    factors: ScaFactorRecord[],
    challenge: ScaChallengeRecord,
    proof: ScaProof,
  ): Promise<boolean> {
    if (!challenge.challengeHex || !proof.origin) return false;
    const credentialId = assertionCredentialId(proof.passkeyAssertion);
    const passkey = factors.find((f) => f.factor === 'PASSKEY' && f.credentialId === credentialId);
    if (!passkey) return false;
    const counter = await verifiedAssertion({
      rp: settings.relyingParty,
      assertion: proof.passkeyAssertion,
      origin: proof.origin,
      challengeHex: challenge.challengeHex,
      passkey: { credentialId: passkey.credentialId!, publicKey: passkey.publicKey!, counter: passkey.counter ?? 0 },
    });
    if (counter === undefined) return false;
    await sca.factors.setCounter(passkey.id, counter);
    return true;
  }

  /** Whether the proof is right for the challenge, and shows every category its factor and the step need. */
  async function matches(c: Customer, challenge: ScaChallengeRecord, proof: ScaProof): Promise<boolean> {
    const { factors } = await enrolled(c);
    const possession: FactorCategory[] = ['POSSESSION'];
    if (proof.passkeyAssertion !== undefined) {
      const proved: FactorCategory[] = assertionHasUserVerification(proof.passkeyAssertion)
        ? ['POSSESSION', 'INHERENCE']
        : possession;
      return challenge.availableFactors.includes('PASSKEY') && satisfiesStep('PASSKEY', proved)
        && passkeyMatches(factors, challenge, proof);
    }
    const code = proof.code!;
    if (RECOVERY_CODE.test(code)) return challenge.availableFactors.includes('TOTP') && recoveryMatches(factors, code);
    if (challenge.codeHash && challenge.salt && sameHash(hashOf(challenge.salt, code), challenge.codeHash)) {
      return satisfiesStep('SMS_OTP', possession);
    }
    return challenge.availableFactors.includes('TOTP') && satisfiesStep('TOTP', possession)
      && totpMatches(c, factors, code);
  }

  function checkShape(proof: ScaProof): void {
    if (
      proof.passkeyAssertion === undefined
      && (typeof proof.code !== 'string' || !(/^[0-9]{6}$/.test(proof.code) || RECOVERY_CODE.test(proof.code)))
    ) {
      throw invalidProof('must be the 6-digit code (or a TOTP recovery code)');
    }
    if (proof.passkeyAssertion !== undefined && !proof.origin) {
      throw invalidProof('is required with passkeyAssertion', 'origin');
    }
    if (proof.passkeyAssertion !== undefined && !assertionHasUserVerification(proof.passkeyAssertion)) {
      throw invalidProof(
        "has no user verification (the UV flag): SCA needs the passkey's user verification (biometric or PIN) "
          + 'as its second factor, so request it (userVerification: required) and sign again',
        'passkeyAssertion',
      );
    }
  }

  /**
   * Checks a proof against the challenge `challengeId` issued for `binding`. A right proof completes
   * the challenge once; the same proof again (concurrently or later, for this challenge or one of
   * `earlierChallengeIds`: the steps before it) answers the same success, `repeated`, and counts
   * nothing. Each evaluation is claimed on the challenge (one at a time, at most `maxAttempts`) and
   * reserved against the customer's lockout before the proof is checked; only a wrong proof counts.
   */
  async function verify(
    { customer: c, challengeId, binding, proof, earlierChallengeIds = [] }: ScaProofCheck,
  ): Promise<{ challenge: ScaChallengeRecord; repeated: boolean; completedAt: string }> {
    checkShape(proof);
    // In sandbox the fixed code is every challenge's code: it always answers the current step.
    const sandboxCode = settings.sandbox && proof.code === SANDBOX_SCA_CODE;
    for (const earlierId of sandboxCode ? [] : earlierChallengeIds) {
      const earlier = await sca.challenges.find(earlierId);
      if (
        earlier?.completedAt && earlier.customerId === c.id && earlier.platformId === c.platformId
        && earlier.completedProof === proofDigest(earlierId, proof)
      ) {
        return { challenge: earlier, repeated: true, completedAt: earlier.completedAt };
      }
    }
    for (let round = 0;; round += 1) {
      const challenge = challengeId ? await sca.challenges.find(challengeId) : null;
      if (
        !challenge || challenge.platformId !== c.platformId || challenge.customerId !== c.id
        || challenge.binding !== binding
      ) {
        throw invalidProof('no such challenge is outstanding: start again', 'challengeId');
      }
      const digest = proofDigest(challenge.id, proof);
      if (challenge.completedAt) {
        if (challenge.completedProof === digest) {
          return { challenge, repeated: true, completedAt: challenge.completedAt };
        }
        throw invalidProof('has already been used', 'challengeId');
      }
      await assertNotLocked(c);
      if (Date.parse(challenge.expiresAt) <= deps.clock().getTime()) {
        throw invalidProof('the challenge has expired: start again', 'challengeId');
      }
      if (challenge.failedProofs?.includes(digest)) throw wrongProof(proof);
      if (challenge.evaluatingProof === digest && round < 5) {
        // The same proof is being checked by another request: its outcome is this one's.
        await evaluations.settledElsewhere(challenge.id, digest);
        continue;
      }
      if (!(await evaluations.claim(c, challenge, digest, round < 5))) continue;
      let right = false;
      try {
        right = await matches(c, challenge, proof);
      } catch (err) {
        await evaluations.release(c, challenge.id, digest);
        throw err;
      }
      const completedAt = await evaluations.settle(c, challenge.id, digest, right);
      if (!right) throw wrongProof(proof);
      return { challenge, repeated: false, completedAt };
    }
  }

  return {
    scaCustomer,
    enrolled,
    issue,
    resend,
    verify,
    verifiedPhone,
    assertNotLocked,
    updateSecurity: evaluations.updateSecurity,
  };
}

/** How long another request's evaluation of the same proof is awaited, and when an evaluation is stale. */
const EVALUATION_WAIT_MS = 10_000;
const EVALUATION_STALE_MS = 30_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The claims, reservations and settlements around one proof's evaluation. */
function createEvaluations(deps: ScaDeps) {
  const { sca, settings } = deps;

  /** Applies `change` to the customer's security state (a conditional write, retried until it holds). */
  async function updateSecurity(
    c: Customer,
    change: (state: LoginSecurity) => LoginSecurity | undefined,
  ): Promise<{ before: LoginSecurity; after?: LoginSecurity }> {
    for (;;) {
      const before = await sca.security.find(c.platformId, c.id);
      const after = change(before);
      if (!after) return { before };
      if (await sca.security.replace(c.platformId, c.id, before, after)) return { before, after };
    }
  }

  const reservationId = (challengeId: string, digest: string) => `${challengeId}|${digest.slice(0, 16)}`;

  return {
    updateSecurity,

    /**
     * Claims the challenge's evaluation, then reserves one attempt of the customer's: or refuses (429 /
     * 423). False (look again) when the claim failed because the same proof is in flight or completed it.
     */
    async claim(c: Customer, challenge: ScaChallengeRecord, digest: string, mayRetry: boolean): Promise<boolean> {
      const now = deps.clock();
      const claimed = await sca.challenges.claimEvaluation(challenge.id, {
        max: settings.maxAttempts,
        proof: digest,
        now: now.toISOString(),
        staleBefore: new Date(now.getTime() - EVALUATION_STALE_MS).toISOString(),
      });
      if (!claimed) {
        const fresh = await sca.challenges.find(challenge.id);
        if (mayRetry && (fresh?.evaluatingProof === digest || fresh?.completedAt)) return false;
        const spent = (fresh?.attempts ?? challenge.attempts) >= settings.maxAttempts;
        throw new AppError(
          'RATE_LIMITED',
          spent
            ? 'This challenge has been tried too often: start a new one'
            : 'Another proof for this challenge is being checked: try again in a moment',
          { retryAfterSeconds: spent ? 60 : 1 },
        );
      }
      const reservation = { id: reservationId(challenge.id, digest), at: now.toISOString() };
      const { before, after } = await updateSecurity(c, (state) => withReservation(state, reservation, now));
      if (after) return true;
      await sca.challenges.endEvaluation(challenge.id, digest, 'RELEASED', now.toISOString());
      if (isLocked(before, now)) throw lockedError(before);
      throw new AppError('RATE_LIMITED', 'Other proofs of this customer are being checked: try again in a moment', {
        retryAfterSeconds: 1,
      });
    },

    /**
     * Counts a wrong proof (and records it on the challenge), or gives a right one's reservation back: when it
     * completed.
     */
    async settle(c: Customer, challengeId: string, digest: string, right: boolean): Promise<string> {
      const now = deps.clock();
      await updateSecurity(c, (state) => afterSettled(state, reservationId(challengeId, digest), !right, now));
      if (
        !(await sca.challenges.endEvaluation(challengeId, digest, right ? 'COMPLETED' : 'FAILED', now.toISOString()))
        && right
      ) {
        throw invalidProof('has already been used', 'challengeId');
      }
      return now.toISOString();
    },

    /** An evaluation that could not finish (the proof was not judged): nothing counts. */
    async release(c: Customer, challengeId: string, digest: string): Promise<void> {
      const now = deps.clock();
      await updateSecurity(c, (state) => afterSettled(state, reservationId(challengeId, digest), false, now));
      await sca.challenges.endEvaluation(challengeId, digest, 'RELEASED', now.toISOString());
    },

    /** Waits while another request evaluates the same proof. */
    async settledElsewhere(challengeId: string, digest: string): Promise<void> {
      for (let waited = 0; waited < EVALUATION_WAIT_MS; waited += 20) {
        await sleep(20);
        const fresh = await sca.challenges.find(challengeId);
        if (fresh?.evaluatingProof !== digest) return;
      }
    },
  };
}

export type ScaProofs = ReturnType<typeof createScaProofs>;
