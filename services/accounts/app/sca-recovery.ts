import { randomUUID } from 'node:crypto';
import { AppError } from '../../../lib/errors';
import { afterFactorReset } from '../domain/sca-lockout';
import { factorOf } from './sca';
import type { ScaDeps, ScaProofs } from './sca-proofs';
import type { ScaResetRecord } from './sca-store';

/** The liveness-provider port: opens a check, and says how it ended. */
export interface LivenessProvider {
  open(
    reset: { id: string; customerId: string; applicantName: string },
  ): Promise<{ accessToken: string; verificationLink?: string }>;
  /** PASSED, FAILED, or PENDING while the end user has not finished. */
  outcome(accessToken: string): Promise<'PASSED' | 'FAILED' | 'PENDING'>;
}

const RESETS_PER_DAY = 5;
const DAY_MS = 86_400_000;

/** 2FA recovery: a liveness-gated reset clears the lost factor (or enrolls a new phone for SMS_OTP). */
export function createTwoFactorResets(deps: ScaDeps & { liveness: LivenessProvider }, proofs: ScaProofs) {
  const { sca } = deps;

  /** The reset as it stands now, moved on by the liveness outcome and the clock. */
  async function current(reset: ScaResetRecord): Promise<ScaResetRecord> {
    const now = deps.clock().toISOString();
    if (['INITIATED', 'PENDING_REVIEW', 'LIVENESS_PASSED'].includes(reset.status) && reset.expiresAt <= now) {
      await sca.resets.transition(reset.id, [reset.status], 'EXPIRED');
      return { ...reset, status: 'EXPIRED' };
    }
    if (reset.status !== 'INITIATED' && reset.status !== 'PENDING_REVIEW') return reset;
    const outcome = await deps.liveness.outcome(reset.livenessToken);
    if (outcome === 'PENDING') return reset;
    const to = outcome === 'PASSED' ? 'LIVENESS_PASSED' : 'REJECTED';
    await sca.resets.transition(reset.id, [reset.status], to);
    return { ...reset, status: to };
  }

  async function find(platformId: string, customerId: string, resetId: string) {
    const reset = await sca.resets.find(platformId, customerId, resetId);
    if (!reset) throw new AppError('NOT_FOUND', 'Reset not found');
    return current(reset);
  }

  return {
    async start(platformId: string, customerId: string, factorValue: unknown) {
      const c = await proofs.scaCustomer(platformId, customerId);
      const factor = factorOf(factorValue);
      const now = deps.clock();
      if (
        (await sca.resets.countSince(platformId, customerId, new Date(now.getTime() - DAY_MS).toISOString()))
          >= RESETS_PER_DAY
      ) {
        throw new AppError('RATE_LIMITED', 'At most 5 resets may be started in 24 hours', { retryAfterSeconds: 3600 });
      }
      const id = `ScaReset:${randomUUID()}`;
      const opened = await deps.liveness.open({
        id,
        customerId: c.id,
        applicantName: (c.customerType === 'BUSINESS' ? c.businessInfo?.legalName : c.fullName) ?? '',
      });
      const reset: ScaResetRecord = {
        id,
        platformId,
        customerId,
        factor,
        status: 'INITIATED',
        livenessToken: opened.accessToken,
        expiresAt: new Date(now.getTime() + deps.settings.resetTtlMs).toISOString(),
        createdAt: now.toISOString(),
      };
      await sca.resets.insert(reset);
      return {
        resetId: id,
        livenessAccessToken: opened.accessToken,
        verificationLink: opened.verificationLink,
        expiresAt: reset.expiresAt,
      };
    },

    async get(platformId: string, customerId: string, resetId: string) {
      await proofs.scaCustomer(platformId, customerId);
      const reset = await find(platformId, customerId, resetId);
      const enrollmentStatus = reset.factor === 'SMS_OTP'
        ? undefined
        : reset.status !== 'COMPLETED'
        ? 'PENDING'
        : (await proofs.enrolled(await proofs.scaCustomer(platformId, customerId))).kinds.includes(reset.factor)
        ? 'COMPLETED'
        : 'PENDING';
      return {
        status: reset.status,
        factor: reset.factor,
        enrollmentStatus,
        expiresAt: reset.expiresAt,
        completedAt: reset.completedAt,
      };
    },

    async complete(
      platformId: string,
      customerId: string,
      resetId: string,
      mobile?: { countryCode?: string; number?: string },
    ) {
      const c = await proofs.scaCustomer(platformId, customerId);
      const reset = await find(platformId, customerId, resetId);
      if (reset.status !== 'LIVENESS_PASSED') {
        throw AppError.invalidInput(`The reset is ${reset.status}: liveness has not passed`, [{
          field: 'resetId',
          message: `is ${reset.status}`,
        }]);
      }
      let phone: string | undefined;
      if (reset.factor === 'SMS_OTP') {
        const country = mobile?.countryCode;
        const number = mobile?.number;
        if (!country || !/^\+[1-9][0-9]{0,3}$/.test(country) || !number || !/^[0-9]{4,14}$/.test(number)) {
          throw AppError.invalidInput('An SMS_OTP reset needs the new mobile number', [{
            field: 'mobile',
            message: 'must have countryCode (+ and digits) and number (digits)',
          }]);
        }
        phone = `${country}${number}`;
      }
      const now = deps.clock().toISOString();
      if (!(await sca.resets.transition(reset.id, ['LIVENESS_PASSED'], 'COMPLETED', { completedAt: now }))) {
        throw new AppError('CONFLICT', 'The reset has already completed');
      }
      if (phone) await deps.store.customers.setVerifiedPhone(platformId, c.id, phone, now);
      else await sca.factors.remove(platformId, c.id, { factor: reset.factor });
      // Liveness proved the customer: the lock, the suspension and the failure count are cleared.
      await proofs.updateSecurity(c, afterFactorReset);
    },
  };
}
