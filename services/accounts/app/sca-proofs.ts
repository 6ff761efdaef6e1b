import { createHash, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../../lib/errors';
import type { Customer } from '../domain/customer';
import { scaRequired } from '../domain/sca-region';
import { afterFailedAttempt, isLocked, type LoginSecurity } from '../domain/sca-lockout';
import { assertionCredentialId, assertionOptions, verifiedAssertion, type RelyingParty } from '../domain/sca-passkey';
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

export function invalidProof(message: string, field = 'code'): AppError {
  return AppError.invalidInput(message, [{ field, message }]);
}

function lockedError(state: LoginSecurity): AppError {
  return new AppError('ACCOUNT_LOCKED', state.suspended
    ? 'The customer\'s login is suspended after too many failed attempts: a password reset clears it'
    : 'The customer\'s login is locked after too many failed attempts', {
    suspended: state.suspended, failedAttempts: state.failedAttempts, ...(state.lockedUntil ? { lockedUntil: state.lockedUntil } : {}),
  });
}

/** The proofs every SCA flow shares: challenges, their SMS codes, TOTP and passkey checks, lockout. */
export function createScaProofs(deps: ScaDeps) {
  const { sca, settings } = deps;

  async function scaCustomer(platformId: string, customerId: string): Promise<Customer> {
    const customer = await deps.store.customers.find(platformId, customerId);
    if (!customer || customer.isDeleted) throw AppError.notFound('Customer', 'USER_NOT_FOUND');
    if (!scaRequired(customer)) throw new AppError('CONFLICT', 'Strong Customer Authentication is not required for this customer\'s region');
    return customer;
  }

  const verifiedPhone = (c: Customer) => (c.contactVerification?.phone === 'VERIFIED' && c.phoneNumber ? c.phoneNumber : undefined);

  async function enrolled(c: Customer): Promise<{ factors: ScaFactorRecord[]; kinds: ScaFactorKind[] }> {
    const factors = await sca.factors.list(c.platformId, c.id);
    const kinds = new Set<ScaFactorKind>(verifiedPhone(c) ? ['SMS_OTP'] : []);
    for (const f of factors) kinds.add(f.factor);
    return { factors, kinds: (['SMS_OTP', 'TOTP', 'PASSKEY'] as const).filter((k) => kinds.has(k)) };
  }

  async function sendCode(c: Customer, challengeId: string, summary: string | undefined): Promise<{ codeHash: string; salt: string }> {
    const to = verifiedPhone(c);
    if (!to) throw new AppError('CONFLICT', 'The customer has no verified phone for SMS_OTP: verify it first');
    const code = settings.sandbox ? SANDBOX_SCA_CODE : String(randomInt(0, 1_000_000)).padStart(6, '0');
    const salt = randomBytes(16).toString('hex');
    await deps.messenger.send({
      channel: 'SMS', to, subject: 'Your authentication code',
      body: `${summary ? `${summary}. ` : ''}Your authentication code is ${code}. It expires in ${Math.max(1, Math.round(settings.challengeTtlMs / 60_000))} minutes.`,
      idempotencyKey: `sca:${challengeId}:${salt}`,
    });
    return { codeHash: hashOf(salt, code), salt };
  }

  /**
   * A new challenge. `availableFactors` are those the customer has among `allowed`; the code is sent
   * when SMS_OTP is the factor; a passkey challenge commits to the binding (dynamic linking).
   */
  async function issue(c: Customer, request: {
    id?: string; replace?: boolean; purpose: string; binding: string; factor?: ScaFactorKind; allowed: ScaFactorKind[]; summary?: string; expiresAt?: string;
  }): Promise<{ challenge: ScaChallengeRecord; passkeyOptions?: Record<string, unknown> }> {
    const { factors, kinds } = await enrolled(c);
    const availableFactors = kinds.filter((k) => request.allowed.includes(k));
    const factor = request.factor ?? (availableFactors.includes('SMS_OTP') ? 'SMS_OTP' : availableFactors[0]);
    if (!factor || !availableFactors.includes(factor)) {
      throw invalidProof(factor ? `${factor} is not enrolled for this customer` : 'The customer has no factor enrolled for this challenge', 'factor');
    }
    const now = deps.clock();
    const id = request.id ?? `ScaChallenge:${randomUUID()}`;
    const challenge: ScaChallengeRecord = {
      id, platformId: c.platformId, customerId: c.id, purpose: request.purpose, binding: request.binding, factor, availableFactors,
      expiresAt: request.expiresAt ?? new Date(now.getTime() + settings.challengeTtlMs).toISOString(), attempts: 0,
      ...(request.summary ? { summary: request.summary } : {}),
    };
    let passkeyOptions: Record<string, unknown> | undefined;
    if (availableFactors.includes('PASSKEY') && (factor === 'PASSKEY' || request.factor === undefined)) {
      challenge.challengeHex = createHash('sha256').update(`${request.binding}|${randomBytes(32).toString('hex')}`).digest('hex');
      const ids = factors.filter((f) => f.factor === 'PASSKEY').map((f) => f.credentialId!);
      passkeyOptions = (await assertionOptions(settings.relyingParty, challenge.challengeHex, ids)) as unknown as Record<string, unknown>;
    }
    if (factor === 'SMS_OTP') Object.assign(challenge, await sendCode(c, id, request.summary), { sentAt: now.toISOString() });
    await (request.replace ? sca.challenges.put(challenge) : sca.challenges.insert(challenge));
    return { challenge, passkeyOptions };
  }

  async function resend(c: Customer, challengeId: string): Promise<void> {
    const challenge = await sca.challenges.find(challengeId);
    if (!challenge || challenge.customerId !== c.id || challenge.platformId !== c.platformId) throw new AppError('NOT_FOUND', 'Challenge not found');
    if (challenge.factor !== 'SMS_OTP') throw new AppError('CONFLICT', `A ${challenge.factor} challenge has no code to re-send`);
    const now = deps.clock();
    if (Date.parse(challenge.expiresAt) <= now.getTime()) throw new AppError('CONFLICT', 'The challenge has expired');
    const sentBefore = new Date(now.getTime() - settings.resendIntervalMs).toISOString();
    if (!(await sca.challenges.markResent(challenge.id, now.toISOString(), sentBefore))) {
      const waitMs = Date.parse(challenge.sentAt ?? now.toISOString()) + settings.resendIntervalMs - now.getTime();
      throw new AppError('RATE_LIMITED', 'A code was sent moments ago; wait before asking for another', { retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) });
    }
    // Only the code's hash is kept, so a fresh code replaces it under the same expiry.
    const sent = await sendCode(c, challenge.id, challenge.summary);
    await sca.challenges.replaceCode(challenge.id, sent.codeHash, sent.salt);
  }

  async function recordFailure(c: Customer): Promise<void> {
    for (let i = 0; i < 20; i += 1) {
      const state = await sca.security.find(c.platformId, c.id);
      if (await sca.security.replace(c.platformId, c.id, state.failedAttempts, afterFailedAttempt(state, deps.clock()))) return;
    }
  }

  async function assertNotLocked(c: Customer): Promise<void> {
    const state = await sca.security.find(c.platformId, c.id);
    if (isLocked(state, deps.clock())) throw lockedError(state);
  }

  async function totpMatches(c: Customer, factors: ScaFactorRecord[], code: string): Promise<boolean> {
    const totp = factors.find((f) => f.factor === 'TOTP');
    if (!totp?.sealedSecret) return false;
    const now = deps.clock();
    const step = settings.sandbox && code === SANDBOX_SCA_CODE ? currentTotpStep(now) : totpStepOf(deps.sealer.open(totp.sealedSecret, totp.id), code, now);
    return step !== undefined && sca.factors.useTotpStep(totp.id, step);
  }

  async function recoveryMatches(factors: ScaFactorRecord[], code: string): Promise<boolean> {
    const totp = factors.find((f) => f.factor === 'TOTP');
    return !!totp?.recoverySalt && sca.factors.useRecoveryCode(totp.id, recoveryHash(totp.recoverySalt, code));
  }

  async function passkeyMatches(factors: ScaFactorRecord[], challenge: ScaChallengeRecord, proof: ScaProof): Promise<boolean> {
    if (!challenge.challengeHex || !proof.origin) return false;
    const credentialId = assertionCredentialId(proof.passkeyAssertion);
    const passkey = factors.find((f) => f.factor === 'PASSKEY' && f.credentialId === credentialId);
    if (!passkey) return false;
    const counter = await verifiedAssertion(settings.relyingParty, proof.passkeyAssertion, proof.origin, challenge.challengeHex, {
      credentialId: passkey.credentialId!, publicKey: passkey.publicKey!, counter: passkey.counter ?? 0,
    });
    if (counter === undefined) return false;
    await sca.factors.setCounter(passkey.id, counter);
    return true;
  }

  async function matches(c: Customer, challenge: ScaChallengeRecord, proof: ScaProof): Promise<boolean> {
    const { factors } = await enrolled(c);
    if (proof.passkeyAssertion !== undefined) return challenge.availableFactors.includes('PASSKEY') && passkeyMatches(factors, challenge, proof);
    const code = proof.code!;
    if (RECOVERY_CODE.test(code)) return challenge.availableFactors.includes('TOTP') && recoveryMatches(factors, code);
    if (challenge.codeHash && challenge.salt && sameHash(hashOf(challenge.salt, code), challenge.codeHash)) return true;
    return challenge.availableFactors.includes('TOTP') && totpMatches(c, factors, code);
  }

  /**
   * Checks a proof against the challenge `challengeId` issued for `binding`, and spends it. Each
   * evaluation is claimed first (at most `maxAttempts`, concurrent guesses included); a wrong proof
   * counts toward the customer's lockout.
   */
  async function verify(c: Customer, challengeId: string | undefined, binding: string, proof: ScaProof): Promise<ScaChallengeRecord> {
    if (proof.passkeyAssertion === undefined && (typeof proof.code !== 'string' || !(/^[0-9]{6}$/.test(proof.code) || RECOVERY_CODE.test(proof.code)))) {
      throw invalidProof('must be the 6-digit code (or a TOTP recovery code)');
    }
    if (proof.passkeyAssertion !== undefined && !proof.origin) throw invalidProof('is required with passkeyAssertion', 'origin');
    await assertNotLocked(c);
    const challenge = challengeId ? await sca.challenges.find(challengeId) : null;
    if (!challenge || challenge.platformId !== c.platformId || challenge.customerId !== c.id || challenge.binding !== binding) {
      throw invalidProof('no such challenge is outstanding: start again', 'challengeId');
    }
    if (Date.parse(challenge.expiresAt) <= deps.clock().getTime()) throw invalidProof('the challenge has expired: start again', 'challengeId');
    if (!(await sca.challenges.claimAttempt(challenge.id, settings.maxAttempts))) {
      throw new AppError('RATE_LIMITED', 'This challenge has been tried too often: start a new one', { retryAfterSeconds: 60 });
    }
    if (!(await matches(c, challenge, proof))) {
      await recordFailure(c);
      throw invalidProof(proof.passkeyAssertion !== undefined ? 'the passkey assertion does not verify' : 'is not a valid code', proof.passkeyAssertion !== undefined ? 'passkeyAssertion' : 'code');
    }
    if (!(await sca.challenges.consume(challenge.id))) throw invalidProof('has already been used', 'challengeId');
    return challenge;
  }

  return { scaCustomer, enrolled, issue, resend, verify, verifiedPhone, assertNotLocked };
}

export type ScaProofs = ReturnType<typeof createScaProofs>;
