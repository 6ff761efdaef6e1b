import type { PeerClients } from '../../../../lib/runtime/peer-clients';
import type { WalletAuthorizer } from '../app/wallet-authorizer';

/** The signed-retry operation name under which the auth service records quote executions. */
export const EXECUTE_QUOTE_OPERATION = 'quote.execute';

/**
 * Embedded-wallet authorization through the auth service's SignedRetryService: the challenge is
 * issued with the quote, and the execution presents the stamp over it. The signed body is the
 * quote id, the same for the challenge and every retry.
 */
export function createSignedRetryWalletAuthorizer(peers: Pick<PeerClients, 'signedRetry'>): WalletAuthorizer {
  const body = (quoteId: string) => ({ quoteId });
  return {
    async challenge(caller, quoteId, accountId) {
      const { challenge } = await peers.signedRetry.beginSignedRetry({
        operation: EXECUTE_QUOTE_OPERATION,
        targetId: quoteId,
        body: body(quoteId),
        signerAccountIds: [accountId],
        parameters: { quoteId },
      }, caller);
      return { payloadToSign: challenge!.payloadToSign, requestId: challenge!.requestId };
    },
    async authorize(caller, input) {
      const answer = await peers.signedRetry.completeSignedRetry({
        operation: EXECUTE_QUOTE_OPERATION,
        targetId: input.quoteId,
        body: body(input.quoteId),
        signature: { stamp: input.stamp, requestId: input.requestId },
      }, caller);
      return { state: answer.state, requestId: answer.requestId };
    },
    async settle(caller, requestId, outcome) {
      await peers.signedRetry.settleSignedRetry(
        'transactionId' in outcome
          ? { requestId, result: { transactionId: outcome.transactionId } }
          : { requestId, errorCode: outcome.errorCode, errorMessage: outcome.errorMessage },
        caller,
      );
    },
  };
}
