import {
  ScaServiceService,
  type ScaChallengeView,
  type ScaProof as ScaProofMessage,
} from '../../../gen/accounts/v1/sca';
import { AppError } from '../../../lib/errors';
import { requirePlatform } from '../../../lib/grpc/call-context';
import { bindService } from '../../../lib/grpc/service-binding';
import type { createBeneficiaryTrust } from '../app/beneficiary-trust';
import type { ScaFactors } from '../app/sca';
import type { ScaProof, ScaProofs } from '../app/sca-proofs';
import type { createTwoFactorResets } from '../app/sca-recovery';
import type { ScaChallengeRecord, ScaFactorKind } from '../app/sca-store';

function json(value: string | undefined, field: string): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value);
  } catch {
    throw AppError.invalidInput('Invalid request', [{ field, message: 'must be a JSON object' }]);
  }
}

function proofOf(p: ScaProofMessage | undefined): ScaProof & { challengeId?: string; endUserIpAddress?: string } {
  return {
    code: p?.code,
    passkeyAssertion: json(p?.passkeyAssertionJson, 'passkeyAssertion'),
    origin: p?.origin,
    challengeId: p?.challengeId,
    endUserIpAddress: p?.endUserIpAddress,
  };
}

export function challengeView(
  c: ScaChallengeRecord,
  passkeyOptions?: Record<string, unknown>,
  origins?: readonly string[],
): ScaChallengeView {
  return {
    id: c.id,
    expiresAt: c.expiresAt,
    factor: c.factor,
    availableFactors: c.availableFactors,
    purpose: c.purpose,
    passkeyAssertionOptionsJson: passkeyOptions ? JSON.stringify(passkeyOptions) : undefined,
    passkeyAllowedOrigins: passkeyOptions && origins ? [...origins] : [],
  };
}

export function bindScaService(deps: {
  factors: ScaFactors;
  proofs: ScaProofs;
  trust: ReturnType<typeof createBeneficiaryTrust>;
  resets: ReturnType<typeof createTwoFactorResets>;
  origins: readonly string[];
}) {
  const { factors, proofs, trust, resets } = deps;
  return bindService(ScaServiceService, {
    async listScaFactors(req, ctx) {
      return { factors: await factors.list(requirePlatform(ctx), req.customerId) };
    },
    async startScaEnrollment(req, ctx) {
      const r = await factors.startEnrollment(requirePlatform(ctx), req.customerId, req.type);
      return r.type === 'TOTP'
        ? {
          type: r.type,
          secret: r.secret,
          secretBase32Encoded: r.secretBase32Encoded,
          totpUri: r.totpUri,
          allowedOrigins: [],
        }
        : {
          type: r.type,
          optionsJson: JSON.stringify(r.options),
          allowedOrigins: r.allowedOrigins,
          relyingPartyId: r.relyingPartyId,
        };
    },
    async confirmScaEnrollment(req, ctx) {
      const r = await factors.confirmEnrollment(requirePlatform(ctx), req.customerId, {
        type: req.type,
        secret: req.secret,
        code: req.code,
        origin: req.origin,
        credential: json(req.credentialJson, 'credential'),
      });
      return r.type === 'TOTP'
        ? { type: r.type, recoveryCodes: r.recoveryCodes }
        : { type: r.type, recoveryCodes: [], factor: r.factor };
    },
    async deleteScaFactor(req, ctx) {
      await factors.remove(requirePlatform(ctx), req.customerId, req.credentialId);
      return {};
    },
    async startScaLogin(req, ctx) {
      const r = await factors.startLogin(requirePlatform(ctx), req.customerId, req.factor);
      return {
        factor: r.factor,
        challengeId: 'challengeId' in r ? r.challengeId : undefined,
        expiresAt: 'expiresAt' in r ? r.expiresAt : undefined,
        passkeyOptionsJson: 'passkeyOptions' in r && r.passkeyOptions ? JSON.stringify(r.passkeyOptions) : undefined,
        allowedOrigins: ('allowedOrigins' in r && r.allowedOrigins) || [],
        relyingPartyId: 'relyingPartyId' in r ? r.relyingPartyId : undefined,
      };
    },
    async completeScaLogin(req, ctx) {
      return factors.completeLogin(requirePlatform(ctx), req.customerId, req.factor, proofOf(req.proof));
    },
    async recordSecurityEvent(req, ctx) {
      return factors.recordEvent(requirePlatform(ctx), req.customerId, req.eventType);
    },
    async startTwoFactorReset(req, ctx) {
      return resets.start(requirePlatform(ctx), req.customerId, req.factor);
    },
    async getTwoFactorReset(req, ctx) {
      return resets.get(requirePlatform(ctx), req.customerId, req.resetId);
    },
    async completeTwoFactorReset(req, ctx) {
      await resets.complete(requirePlatform(ctx), req.customerId, req.resetId, {
        countryCode: req.mobileCountryCode,
        number: req.mobileNumber,
      });
      return {};
    },
    async startBeneficiaryTrust(req, ctx) {
      const { challenge, passkeyOptions } = await trust.start(requirePlatform(ctx), req.externalAccountId, req.trust);
      return { challenge: challengeView(challenge, passkeyOptions, deps.origins) };
    },
    async confirmBeneficiaryTrust(req, ctx) {
      return trust.confirm(requirePlatform(ctx), req.externalAccountId, req.trust, proofOf(req.proof));
    },
    async getScaRequirement(req, ctx) {
      return trust.requirement(requirePlatform(ctx), req.customerId, req.payeeAccountId);
    },
    async issueScaChallenge(req, ctx) {
      const c = await proofs.scaCustomer(requirePlatform(ctx), req.customerId);
      const factor = req.factor as ScaFactorKind | undefined;
      if (factor !== undefined && factor !== 'SMS_OTP' && factor !== 'PASSKEY') {
        throw AppError.invalidInput('Invalid scaFactor', [{
          field: 'scaFactor',
          message: 'must be SMS_OTP or PASSKEY: TOTP cannot carry dynamic linking',
        }]);
      }
      const { challenge, passkeyOptions } = await proofs.issue(c, {
        purpose: req.purpose,
        binding: req.binding,
        factor,
        allowed: ['SMS_OTP', 'PASSKEY'],
        summary: req.summary,
        expiresAt: req.expiresAt,
      });
      return { challenge: challengeView(challenge, passkeyOptions) };
    },
    async resendScaChallenge(req, ctx) {
      await proofs.resend(await proofs.scaCustomer(requirePlatform(ctx), req.customerId), req.challengeId);
      return {};
    },
    async verifyScaProof(req, ctx) {
      const c = await proofs.scaCustomer(requirePlatform(ctx), req.customerId);
      if (req.requireSession && !(await factors.session(c.platformId, c.id))) {
        throw new AppError(
          'SCA_SESSION_REQUIRED',
          "The customer's SCA login session is missing or expired: complete an SCA login, then authorize again",
        );
      }
      const { repeated, challenge } = await proofs.verify({
        customer: c,
        challengeId: req.challengeId,
        binding: req.binding,
        proof: proofOf(req.proof),
        earlierChallengeIds: req.earlierChallengeIds,
      });
      return { repeated, completedChallengeId: challenge.id };
    },
  });
}
