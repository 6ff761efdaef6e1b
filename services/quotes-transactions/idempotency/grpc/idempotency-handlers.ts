import {
  BeginKeyedRequestResponse_Outcome,
  IdempotencyServiceService,
} from '../../../../gen/quotes_transactions/v1/idempotency';
import { requirePlatform, type CallContext } from '../../../../lib/grpc/call-context';
import { AppError } from '../../../../lib/errors';
import { bindService } from '../../../../lib/grpc/service-binding';
import type { KeyedRequests } from '../app/keyed-requests';
import type { KeyedRequestScope, KeyedResponse } from '../domain/keyed-request';
import { present } from '../../shared/grpc/payment-caller';

function scopeOf(request: { key: string; agentId?: string }, ctx: CallContext): KeyedRequestScope {
  if (!request.key) {
    throw AppError.invalidInput('Invalid request', [{ field: 'Idempotency-Key', message: 'is required' }]);
  }
  const agentId = present(request.agentId);
  return { platformId: requirePlatform(ctx), key: request.key, ...(agentId ? { agentId } : {}) };
}

function responseOf(response: { status: number; body: string } | undefined): KeyedResponse {
  if (!response || response.status < 100 || response.status > 599) {
    throw AppError.invalidInput('Invalid request', [{ field: 'response.status', message: 'must be an HTTP status' }]);
  }
  return { status: response.status, body: response.body };
}

export function bindIdempotencyService(keyedRequests: KeyedRequests) {
  return bindService(IdempotencyServiceService, {
    async beginKeyedRequest(request, ctx) {
      const begun = await keyedRequests.begin({
        ...scopeOf(request, ctx),
        operation: request.operation,
        fingerprint: request.fingerprint,
      });
      return begun.outcome === 'STARTED'
        ? { outcome: BeginKeyedRequestResponse_Outcome.STARTED, claim: begun.claim }
        : { outcome: BeginKeyedRequestResponse_Outcome.REPLAY, claim: '', response: begun.response };
    },
    async completeKeyedRequest(request, ctx) {
      return {
        stored: await keyedRequests.complete(scopeOf(request, ctx), request.claim, responseOf(request.response)),
      };
    },
    async releaseKeyedRequest(request, ctx) {
      await keyedRequests.release(scopeOf(request, ctx), request.claim);
      return {};
    },
  });
}
