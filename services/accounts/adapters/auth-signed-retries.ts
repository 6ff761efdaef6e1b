import { AppError } from '../../../lib/errors';
import type { PeerClients } from '../../../lib/runtime/peer-clients';
import type { SignedRetries } from '../app/service-ports';

/** auth.v1.SignedRetryService: the one signed-retry mechanism, for the customer email change. */
export function createAuthSignedRetries(peers: PeerClients): SignedRetries {
  return {
    async begin(platformId, request) {
      const { challenge } = await peers.signedRetry.beginSignedRetry(request, { platformId });
      if (!challenge) throw new AppError('INTERNAL_ERROR', 'BeginSignedRetry answered no challenge');
      return challenge;
    },
    async complete(platformId, request) {
      const answer = await peers.signedRetry.completeSignedRetry(request, { platformId });
      if (answer.state === 'SETTLED') {
        return { state: 'SETTLED', requestId: answer.requestId, result: answer.result ?? {} };
      }
      if (answer.state === 'CLAIMED' || answer.state === 'PROCESSING') {
        return { state: answer.state, requestId: answer.requestId };
      }
      throw new AppError('INTERNAL_ERROR', `CompleteSignedRetry answered an unknown state ${answer.state}`);
    },
    async settle(platformId, requestId, outcome) {
      const request = 'result' in outcome
        ? { requestId, result: outcome.result }
        : { requestId, errorCode: outcome.error.code, errorMessage: outcome.error.message };
      await peers.signedRetry.settleSignedRetry(request, { platformId });
    },
  };
}
