import { SignedRetryServiceService } from '../../../gen/auth/v1/signed_retry';
import { AppError, isErrorCode } from '../../../lib/errors';
import { bindService } from '../../../lib/grpc/service-binding';

interface FakeChallenge {
  operation: string;
  targetId: string;
  body: string;
  signerAccountIds: string[];
  parameters: Record<string, unknown>;
  state: 'ISSUED' | 'CLAIMED' | 'SETTLED' | 'FAILED';
  result?: Record<string, unknown>;
  error?: { code: string; message: string };
}

/**
 * auth.v1.SignedRetryService without cryptography: any stamp is accepted; the request id must
 * name an issued challenge of the same operation, target and body. CLAIMED once, PROCESSING
 * until settled, then the settled result or error.
 */
export function createFakeSignedRetry() {
  const state = { challenges: new Map<string, FakeChallenge>(), settled: [] as string[] };
  const binding = bindService(SignedRetryServiceService, {
    async beginSignedRetry(req) {
      const requestId = `Request:${state.challenges.size + 1}`;
      state.challenges.set(requestId, {
        operation: req.operation,
        targetId: req.targetId,
        body: JSON.stringify(req.body),
        signerAccountIds: req.signerAccountIds,
        parameters: req.parameters ?? {},
        state: 'ISSUED',
      });
      return {
        challenge: {
          type: req.type,
          payloadToSign: JSON.stringify({ requestId, parameters: req.parameters }),
          requestId,
          expiresAt: '2100-01-01T00:00:00.000Z',
        },
      };
    },
    async completeSignedRetry(req) {
      const requestId = req.signature?.requestId;
      if (!requestId) throw new AppError('REQUEST_ID_MISSING', 'Request-Id is required');
      if (!req.signature?.stamp) throw new AppError('WALLET_SIGNATURE_MISSING', 'stamp required');
      const challenge = state.challenges.get(requestId);
      if (!challenge) throw new AppError('WALLET_SIGNATURE_INVALID', 'unknown request id');
      if (
        challenge.operation !== req.operation || challenge.targetId !== req.targetId
        || challenge.body !== JSON.stringify(req.body)
      ) {
        throw new AppError('WALLET_SIGNATURE_BODY_MISMATCH', 'differs');
      }
      if (challenge.state === 'ISSUED') {
        challenge.state = 'CLAIMED';
        return { state: 'CLAIMED', requestId };
      }
      if (challenge.state === 'CLAIMED') return { state: 'PROCESSING', requestId };
      if (challenge.error) {
        throw new AppError(
          isErrorCode(challenge.error.code) ? challenge.error.code : 'INTERNAL_ERROR',
          challenge.error.message,
        );
      }
      return { state: 'SETTLED', requestId, result: challenge.result };
    },
    async settleSignedRetry(req) {
      const challenge = state.challenges.get(req.requestId);
      if (!challenge || challenge.state !== 'CLAIMED') throw AppError.notFound('Signed retry');
      state.settled.push(req.requestId);
      if (req.errorCode !== undefined) {
        Object.assign(challenge, { state: 'FAILED', error: { code: req.errorCode, message: req.errorMessage ?? '' } });
      } else Object.assign(challenge, { state: 'SETTLED', result: req.result ?? {} });
      return {};
    },
  });
  return Object.assign(state, { binding });
}
