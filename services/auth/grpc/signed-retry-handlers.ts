import { SignedRetryServiceService } from '../../../gen/auth/v1/signed_retry';
import { requirePlatform } from '../../../lib/grpc/call-context';
import { bindService } from '../../../lib/grpc/service-binding';
import type { ExternalSignedRetry } from '../app/wallet-auth/external-signed-retry';
import { toChallenge } from './wallet-auth-messages';

/** The signed retry for other services' endpoints (customer PATCH, quote execution). */
export function bindSignedRetryService(signedRetry: ExternalSignedRetry) {
  return bindService(SignedRetryServiceService, {
    async beginSignedRetry(request, ctx) {
      const challenge = await signedRetry.begin(requirePlatform(ctx), {
        operation: request.operation,
        targetId: request.targetId,
        body: request.body ?? {},
        signerAccountIds: request.signerAccountIds,
        type: request.type,
        parameters: request.parameters,
      });
      return { challenge: toChallenge(challenge) };
    },
    async completeSignedRetry(request, ctx) {
      const answer = await signedRetry.complete(requirePlatform(ctx), {
        operation: request.operation,
        targetId: request.targetId,
        body: request.body ?? {},
        signature: request.signature ?? {},
      });
      return {
        state: answer.state,
        requestId: answer.requestId,
        ...(answer.state === 'SETTLED' ? { result: answer.result } : {}),
      };
    },
    async settleSignedRetry(request, ctx) {
      await signedRetry.settle(requirePlatform(ctx), {
        requestId: request.requestId,
        result: request.result,
        errorCode: request.errorCode,
        errorMessage: request.errorMessage,
      });
      return {};
    },
  });
}
