import type { AuthMethod, AuthMethodType, AuthSession, WalletAuthOutcome } from '../../../gen/auth/v1/wallet_records';
import type { SignedRetryChallenge } from '../../../gen/auth/v1/signed_retry';
import type { AuthMethodView } from '../domain/wallet-auth/auth-method';
import type { AuthSessionView } from '../domain/wallet-auth/wallet-session';
import type { ChallengeView } from '../app/wallet-auth/signed-retry';
import type { Outcome } from '../app/wallet-auth/signed-flow';

export const PROCESSING_MESSAGE = 'The wallet provider has not settled this operation yet; re-send the '
  + 'identical request (same body, Service-Wallet-Signature and Request-Id).';

export const toAuthMethod = (view: AuthMethodView): AuthMethod => ({ ...view, type: view.type as AuthMethodType });
export const toAuthSession = (view: AuthSessionView): AuthSession => ({ ...view, type: view.type as AuthMethodType });
export const toChallenge = (view: ChallengeView): SignedRetryChallenge => ({ ...view });

/** An endpoint outcome as the proto oneof; the kept result names which record it is. */
export function toOutcome(outcome: Outcome): WalletAuthOutcome {
  if (outcome.kind === 'challenge') return { outcome: { $case: 'challenge', value: toChallenge(outcome.challenge) } };
  if (outcome.kind === 'processing') {
    return { outcome: { $case: 'processing', value: { message: PROCESSING_MESSAGE } } };
  }
  const result = outcome.result;
  if (result.authMethod) {
    return { outcome: { $case: 'authMethod', value: toAuthMethod(result.authMethod as AuthMethodView) } };
  }
  if (result.session) return { outcome: { $case: 'session', value: toAuthSession(result.session as AuthSessionView) } };
  if (result.walletExport) {
    return {
      outcome: {
        $case: 'walletExport',
        value: result.walletExport as { id: string; encryptedWalletCredentials: string },
      },
    };
  }
  if (result.walletPrivacy) {
    return {
      outcome: {
        $case: 'walletPrivacy',
        value: result.walletPrivacy as { accountId: string; privateEnabled: boolean },
      },
    };
  }
  return { outcome: { $case: 'done', value: {} } };
}
