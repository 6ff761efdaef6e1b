import type { PeerClients } from '../../../../lib/runtime/peer-clients';
import type { ScaGate } from '../app/quote-authorization';

/** SCA through the accounts service (which holds the customer's factors, sessions and challenges). */
export function createAccountsScaGate(peers: PeerClients): ScaGate {
  return {
    async requirement(caller, customerId, payeeAccountId) {
      return peers.sca.getScaRequirement({ customerId, payeeAccountId }, caller);
    },
    async issue(caller, request) {
      const { challenge } = await peers.sca.issueScaChallenge(request, caller);
      return {
        id: challenge!.id,
        expiresAt: challenge!.expiresAt,
        factor: challenge!.factor,
        availableFactors: challenge!.availableFactors,
        ...(challenge!.purpose ? { purpose: challenge!.purpose } : {}),
        ...(challenge!.passkeyAssertionOptionsJson
          ? { passkeyAssertionOptionsJson: challenge!.passkeyAssertionOptionsJson }
          : {}),
      };
    },
    async resend(caller, customerId, challengeId) {
      await peers.sca.resendScaChallenge({ customerId, challengeId }, caller);
    },
    async verify(caller, request) {
      const answer = await peers.sca.verifyScaProof({
        ...request,
        earlierChallengeIds: request.earlierChallengeIds ?? [],
        requireSession: true,
      }, caller);
      return { repeated: answer.repeated, completedChallengeId: answer.completedChallengeId };
    },
  };
}
