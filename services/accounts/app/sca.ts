import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { AppError } from '../../../lib/errors';
import type { Customer } from '../domain/customer';
import { afterEvent, isLocked, type SecurityEventType } from '../domain/sca-lockout';
import { assertionOptions, registrationOptions, verifiedRegistration } from '../domain/sca-passkey';
import { newTotpSecret, parseTotpSecret, totpStepOf } from '../domain/sca-totp';
import {
  invalidProof,
  recoveryHash,
  SANDBOX_SCA_CODE,
  type ScaDeps,
  type ScaProof,
  type ScaProofs,
} from './sca-proofs';
import type { ScaFactorKind } from './sca-store';

const ENROLLMENT_TTL_MS = 15 * 60_000;
const RECOVERY_CODES = 10;
const FACTORS: readonly ScaFactorKind[] = ['SMS_OTP', 'TOTP', 'PASSKEY'];

const secretKey = (hex: string) => `totp:${createHash('sha256').update(hex).digest('hex')}`;
const loginBinding = (c: Customer) => `login:${c.platformId}:${c.id}`;
const loginChallengeId = (c: Customer, factor: ScaFactorKind) =>
  `ScaLogin:${createHash('sha256').update(`${c.platformId}|${c.id}|${factor}`).digest('hex').slice(0, 32)}`;

function recoveryCode(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(12);
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]);
  return `${chars.slice(0, 4).join('')}-${chars.slice(4, 8).join('')}-${chars.slice(8).join('')}`;
}

export function factorOf(value: unknown, field = 'factor', allowed: readonly ScaFactorKind[] = FACTORS): ScaFactorKind {
  if (typeof value !== 'string' || !allowed.includes(value as ScaFactorKind)) {
    throw AppError.invalidInput(`Invalid ${field}`, [{
      field,
      message: `must be one of ${allowed.join(', ')}`,
      constraint: { enum: [...allowed] },
    }]);
  }
  return value as ScaFactorKind;
}

/** The customer's SCA session, if one is open and was not revoked since. */
export async function liveScaSession(deps: Pick<ScaDeps, 'sca' | 'clock'>, platformId: string, customerId: string) {
  const [session, security] = await Promise.all([
    deps.sca.sessions.find(platformId, customerId),
    deps.sca.security.find(platformId, customerId),
  ]);
  if (!session || session.expiresAt <= deps.clock().toISOString()) return undefined;
  if (security.sessionsRevokedAt && session.startedAt <= security.sessionsRevokedAt) return undefined;
  return session;
}

/** Factors, enrollment and the SCA login session of one customer. */
export function createScaFactors(deps: ScaDeps, proofs: ScaProofs) {
  const { sca, settings, sealer } = deps;
  const rp = settings.relyingParty;

  return {
    async list(platformId: string, customerId: string) {
      const c = await proofs.scaCustomer(platformId, customerId);
      const { factors } = await proofs.enrolled(c);
      return [
        ...(proofs.verifiedPhone(c) ? [{ factor: 'SMS_OTP' as 'TOTP' | 'PASSKEY' | 'SMS_OTP' }] : []),
        ...factors.map((f) => ({
          factor: f.factor as 'TOTP' | 'PASSKEY' | 'SMS_OTP',
          ...(f.credentialId ? { credentialId: f.credentialId } : {}),
          ...(f.name ? { name: f.name } : {}),
        })),
      ];
    },

    async startEnrollment(platformId: string, customerId: string, type: unknown) {
      const c = await proofs.scaCustomer(platformId, customerId);
      const factor = factorOf(type, 'type', ['TOTP', 'PASSKEY']);
      const { factors } = await proofs.enrolled(c);
      const expiresAt = new Date(deps.clock().getTime() + ENROLLMENT_TTL_MS).toISOString();
      if (factor === 'TOTP') {
        if (factors.some((f) => f.factor === 'TOTP')) {
          throw new AppError('CONFLICT', 'A TOTP factor is already enrolled: reset it first');
        }
        const secret = newTotpSecret(c.email ?? c.platformCustomerId, settings.totpIssuer);
        await sca.enrollments.put({ id: secretKey(secret.hex), platformId, customerId, factor: 'TOTP', expiresAt });
        return { type: 'TOTP' as const, secret: secret.hex, secretBase32Encoded: secret.base32, totpUri: secret.uri };
      }
      if (factors.some((f) => f.factor === 'PASSKEY')) {
        throw new AppError('PASSKEY_ALREADY_ENROLLED', 'A passkey is already enrolled: delete it first');
      }
      const challengeHex = randomBytes(32).toString('hex');
      const options = await registrationOptions(
        rp,
        { id: c.id, name: c.email ?? c.platformCustomerId },
        challengeHex,
        [],
      );
      await sca.enrollments.put({
        id: `passkey:${platformId}:${customerId}`,
        platformId,
        customerId,
        factor: 'PASSKEY',
        challengeHex,
        expiresAt,
      });
      return {
        type: 'PASSKEY' as const,
        options: options as unknown as Record<string, unknown>,
        allowedOrigins: [...rp.origins],
        relyingPartyId: rp.id,
      };
    },

    async confirmEnrollment(
      platformId: string,
      customerId: string,
      request: { type: unknown; secret?: string; code?: string; origin?: string; credential?: unknown },
    ) {
      const c = await proofs.scaCustomer(platformId, customerId);
      const factor = factorOf(request.type, 'type', ['TOTP', 'PASSKEY']);
      const now = deps.clock();
      if (factor === 'TOTP') {
        const hex = request.secret ? parseTotpSecret(request.secret) : undefined;
        if (!hex) throw invalidProof('must be the secret the enrollment start returned', 'secret');
        if (typeof request.code !== 'string' || !/^[0-9]{6}$/.test(request.code)) {
          throw invalidProof('must be the 6-digit code');
        }
        const pending = await sca.enrollments.find(secretKey(hex));
        if (
          !pending || pending.platformId !== platformId || pending.customerId !== customerId
          || pending.expiresAt <= now.toISOString()
        ) {
          throw invalidProof('is not an enrollment under way: start again', 'secret');
        }
        const step = settings.sandbox && request.code === SANDBOX_SCA_CODE
          ? Math.floor(now.getTime() / 30_000)
          : totpStepOf(hex, request.code, now);
        if (step === undefined) throw invalidProof('is not the code the authenticator shows');
        if (!(await sca.enrollments.take(pending.id))) throw invalidProof('has already been confirmed', 'secret');
        const id = `ScaFactor:${randomUUID()}`;
        const codes = Array.from({ length: RECOVERY_CODES }, recoveryCode);
        const recoverySalt = randomBytes(16).toString('hex');
        await sca.factors.remove(platformId, customerId, { factor: 'TOTP' });
        await sca.factors.insert({
          id,
          platformId,
          customerId,
          factor: 'TOTP',
          sealedSecret: sealer.seal(hex, id),
          lastUsedStep: step,
          recoverySalt,
          recoveryCodeHashes: codes.map((code) => recoveryHash(recoverySalt, code)),
          createdAt: now.toISOString(),
        });
        return { type: 'TOTP' as const, recoveryCodes: codes };
      }
      if (typeof request.origin !== 'string') throw invalidProof('is required', 'origin');
      const pending = await sca.enrollments.find(`passkey:${platformId}:${customerId}`);
      if (!pending?.challengeHex || pending.expiresAt <= now.toISOString()) {
        throw invalidProof('no passkey enrollment is under way: start again', 'credential');
      }
      const passkey = await verifiedRegistration(rp, request.credential, request.origin, pending.challengeHex);
      if (!passkey) throw invalidProof('does not verify against the enrollment options and origin', 'credential');
      if (!(await sca.enrollments.take(pending.id))) throw invalidProof('has already been confirmed', 'credential');
      if ((await proofs.enrolled(c)).factors.some((f) => f.factor === 'PASSKEY')) {
        throw new AppError('PASSKEY_ALREADY_ENROLLED', 'A passkey is already enrolled: delete it first');
      }
      await sca.factors.insert({
        id: `ScaFactor:${randomUUID()}`,
        platformId,
        customerId,
        factor: 'PASSKEY',
        credentialId: passkey.credentialId,
        publicKey: passkey.publicKey,
        counter: passkey.counter,
        name: 'Passkey',
        createdAt: now.toISOString(),
      });
      return {
        type: 'PASSKEY' as const,
        factor: { factor: 'PASSKEY' as const, credentialId: passkey.credentialId, name: 'Passkey' },
      };
    },

    async remove(platformId: string, customerId: string, credentialId: string) {
      await proofs.scaCustomer(platformId, customerId);
      if (!(await sca.factors.remove(platformId, customerId, { credentialId }))) {
        throw new AppError('NOT_FOUND', 'Factor not found');
      }
    },

    async startLogin(platformId: string, customerId: string, factorValue: unknown) {
      const c = await proofs.scaCustomer(platformId, customerId);
      const factor = factorOf(factorValue);
      await proofs.assertNotLocked(c);
      const { challenge, passkeyOptions } = await proofs.issue(c, {
        ...(factor === 'SMS_OTP' ? {} : { id: loginChallengeId(c, factor), replace: true }),
        purpose: 'LOGIN',
        binding: loginBinding(c),
        factor,
        allowed: [factor],
      });
      if (factor === 'SMS_OTP') return { factor, challengeId: challenge.id, expiresAt: challenge.expiresAt };
      if (factor === 'TOTP') return { factor };
      return { factor, passkeyOptions, allowedOrigins: [...rp.origins], relyingPartyId: rp.id };
    },

    async completeLogin(
      platformId: string,
      customerId: string,
      factorValue: unknown,
      proof: ScaProof & { challengeId?: string; endUserIpAddress?: string },
    ) {
      const c = await proofs.scaCustomer(platformId, customerId);
      const factor = factorOf(factorValue);
      if (!proof.endUserIpAddress) throw invalidProof('is required', 'endUserIpAddress');
      if (factor === 'SMS_OTP' && !proof.challengeId) throw invalidProof('is required for SMS_OTP', 'challengeId');
      const challengeId = factor === 'SMS_OTP' ? proof.challengeId : loginChallengeId(c, factor);
      // The session starts when the proof completed the challenge: a repeat of the proof answers the same one.
      const { completedAt } = await proofs.verify({ customer: c, challengeId, binding: loginBinding(c), proof });
      const security = await sca.security.find(platformId, customerId);
      if (security.sessionsRevokedAt && security.sessionsRevokedAt >= completedAt) {
        throw invalidProof('has already been used', 'challengeId');
      }
      const sessionExpiresAt = new Date(Date.parse(completedAt) + settings.sessionTtlMs).toISOString();
      // A repeat never replaces a later login's session with this older one.
      const current = await sca.sessions.find(platformId, customerId);
      if (!current || current.startedAt < completedAt) {
        await sca.sessions.put(platformId, customerId, completedAt, sessionExpiresAt);
      }
      return { status: 'SUCCESS', sessionExpiresAt };
    },

    /** The customer's SCA session, if one is open and was not revoked since. */
    session: (platformId: string, customerId: string) => liveScaSession(deps, platformId, customerId),

    async recordEvent(platformId: string, customerId: string, eventType: unknown) {
      const c = await proofs.scaCustomer(platformId, customerId);
      if (eventType !== 'RESET_PASSWORD_COMPLETED' && eventType !== 'FAILED_LOGIN_ATTEMPT') {
        throw AppError.invalidInput('Invalid eventType', [{
          field: 'eventType',
          message: 'must be one of RESET_PASSWORD_COMPLETED, FAILED_LOGIN_ATTEMPT',
        }]);
      }
      const now = deps.clock();
      const { before, after } = await proofs.updateSecurity(
        c,
        (state) => afterEvent(state, eventType as SecurityEventType, now),
      );
      const next = after!;
      // The lock this attempt causes is reported in the 200 answer; an attempt while already locked is 423.
      if (eventType === 'FAILED_LOGIN_ATTEMPT' && isLocked(before, now)) {
        throw new AppError('ACCOUNT_LOCKED', "The customer's login is locked", {
          suspended: next.suspended,
          failedAttempts: next.failedAttempts,
          ...(next.lockedUntil ? { lockedUntil: next.lockedUntil } : {}),
        });
      }
      return {
        eventType: eventType as SecurityEventType,
        suspended: next.suspended,
        lockedUntil: next.lockedUntil,
        failedAttempts: next.failedAttempts,
      };
    },

    assertionOptions: (challengeHex: string, ids: string[]) => assertionOptions(rp, challengeHex, ids),
  };
}

export type ScaFactors = ReturnType<typeof createScaFactors>;
