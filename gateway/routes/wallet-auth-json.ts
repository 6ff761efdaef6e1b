import type { Response } from 'express';
import type { SignedRetryChallenge as Challenge } from '../../gen/auth/v1/signed_retry';
import type { AuthMethod as Method, AuthSession as Session, WalletAuthOutcome } from '../../gen/auth/v1/wallet_records';
import { contractJson } from '../../lib/contract/contract-json';
import { WalletExport } from '../contract/account-contract';
import { Processing, SignedRetryChallenge } from '../contract/common-schemas';
import { AuthMethod, AuthSession, PasskeyChallenge } from '../contract/wallet-auth-contract';

export const authMethodJson = (m: Method) => contractJson(AuthMethod, m);
export const authSessionJson = (s: Session) => contractJson(AuthSession, s);
export const challengeJson = (c: Challenge) => contractJson(SignedRetryChallenge, c);

/**
 * Writes a signed-retry endpoint's outcome: 202 challenge, 200 PROCESSING, 204 when done, or
 * the terminal record with the endpoint's success status.
 */
export function sendWalletOutcome(res: Response, wrapped: WalletAuthOutcome | undefined, successStatus: number): void {
  const outcome = wrapped?.outcome;
  switch (outcome?.$case) {
    case 'challenge':
      res.status(202).json(challengeJson(outcome.value));
      return;
    case 'processing':
      // The message's oneof case is REST's `status`.
      res.status(200).json(contractJson(Processing, { status: 'PROCESSING', ...outcome.value }));
      return;
    case 'authMethod':
      res.status(successStatus).json(authMethodJson(outcome.value));
      return;
    case 'session':
      res.status(successStatus).json(authSessionJson(outcome.value));
      return;
    case 'passkeyChallenge':
      // REST writes the nested authMethod's members beside the challenge's.
      res.status(successStatus).json(contractJson(PasskeyChallenge, { ...outcome.value.authMethod, ...outcome.value }));
      return;
    case 'walletExport':
      res.status(successStatus).json(contractJson(WalletExport, outcome.value));
      return;
    case 'done':
      res.status(204).end();
      return;
    default:
      throw new Error(`unexpected wallet outcome ${outcome?.$case ?? 'none'}`);
  }
}
