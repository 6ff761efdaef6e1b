import {
  CompleteHostedKycRequest_Outcome,
  GetHostedKycResponse_State,
  KycServiceService,
  Verification_Status,
  VerificationError_Type,
  type Verification as VerificationMessage,
} from '../../../gen/accounts/v1/verifications';
import { requirePlatform } from '../../../lib/grpc/call-context';
import { bindService } from '../../../lib/grpc/service-binding';
import { AppError } from '../../../lib/errors';
import { nextPageCursor } from '../../../lib/page-cursor';
import type { Verifications } from '../app/verifications';
import type { HostedOutcome } from '../app/kyc-provider';
import type { Verification } from '../domain/verification';

export function verificationMessage(v: Verification): VerificationMessage {
  return {
    id: v.id,
    customerId: v.customerId,
    verificationStatus: v.status as Verification_Status,
    errors: v.errors.map((e) => ({
      resourceId: e.resourceId,
      type: e.type as VerificationError_Type,
      field: e.field,
      acceptedDocumentTypes: e.acceptedDocumentTypes ?? [],
      reason: e.reason,
    })),
    createdAt: v.createdAt,
    updatedAt: v.updatedAt,
  };
}

const OUTCOMES: Partial<Record<CompleteHostedKycRequest_Outcome, HostedOutcome>> = {
  [CompleteHostedKycRequest_Outcome.APPROVE]: 'APPROVE',
  [CompleteHostedKycRequest_Outcome.REJECT]: 'REJECT',
  [CompleteHostedKycRequest_Outcome.MANUAL_REVIEW]: 'MANUAL_REVIEW',
  [CompleteHostedKycRequest_Outcome.RESOLVE_ERRORS]: 'RESOLVE_ERRORS',
};

/** Decode, call one use case, encode. */
export function bindKycService(verifications: Verifications) {
  return bindService(KycServiceService, {
    async createKycLink(req, ctx) {
      return { link: await verifications.createLink(requirePlatform(ctx), req) };
    },
    async getHostedKyc(req) {
      const s = await verifications.hostedState(req.linkToken);
      if (s.state === 'UNKNOWN') return { state: GetHostedKycResponse_State.UNKNOWN };
      return { state: s.state as GetHostedKycResponse_State, customerType: s.customerType, expiresAt: s.expiresAt };
    },
    async completeHostedKyc(req) {
      const outcome = OUTCOMES[req.outcome];
      if (!outcome) {
        throw AppError.invalidInput('Invalid outcome', [{
          field: 'outcome',
          message: 'must be chosen',
          constraint: { enum: Object.values(OUTCOMES) as string[] },
        }]);
      }
      const done = await verifications.completeHosted(req.linkToken, outcome);
      return { redirectUri: done.redirectUri, verification: verificationMessage(done.verification) };
    },
    async submitVerification(req, ctx) {
      return { verification: verificationMessage(await verifications.submit(requirePlatform(ctx), req.customerId)) };
    },
    async getVerification(req, ctx) {
      return { verification: verificationMessage(await verifications.get(requirePlatform(ctx), req.id)) };
    },
    async listVerifications(req, ctx) {
      const page = await verifications.list(requirePlatform(ctx), {
        customerId: req.customerId,
        status: req.verificationStatus,
        limit: req.limit,
        cursor: req.cursor,
      });
      return {
        verifications: page.items.map(verificationMessage),
        hasMore: page.hasMore,
        nextCursor: nextPageCursor(page.items, page.hasMore),
        totalCount: page.totalCount,
      };
    },
  });
}
