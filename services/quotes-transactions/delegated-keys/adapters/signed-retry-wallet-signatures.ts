import type { PeerClients } from '../../../../lib/runtime/peer-clients';
import type { WalletSignatures } from '../app/delegated-keys';

/** The delegated-key legs' signatures through the auth service's SignedRetryService. */
export function createSignedRetryWalletSignatures(peers: Pick<PeerClients, 'signedRetry'>): WalletSignatures {
  return {
    async begin(caller, input) {
      const { challenge } = await peers.signedRetry.beginSignedRetry({
        operation: input.operation,
        targetId: input.targetId,
        body: input.body as Record<string, unknown>,
        signerAccountIds: [input.accountId],
        parameters: input.parameters,
      }, caller);
      return {
        payloadToSign: challenge!.payloadToSign,
        requestId: challenge!.requestId,
        expiresAt: challenge!.expiresAt,
      };
    },
    async complete(caller, input) {
      const answer = await peers.signedRetry.completeSignedRetry({
        operation: input.operation,
        targetId: input.targetId,
        body: input.body as Record<string, unknown>,
        signature: input.signature,
      }, caller);
      return { state: answer.state as 'CLAIMED' | 'PROCESSING' | 'SETTLED', requestId: answer.requestId };
    },
    async settle(caller, requestId, outcome) {
      await peers.signedRetry.settleSignedRetry({ requestId, ...outcome }, caller);
    },
  };
}
