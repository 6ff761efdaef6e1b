import type { Response } from 'express';
import type { SignedRetryChallenge } from '../../gen/auth/v1/signed_retry';
import type { AuthMethod, AuthSession, WalletAuthOutcome } from '../../gen/auth/v1/wallet_records';
import { withoutAbsent } from './rest-request';

export function authMethodJson(m: AuthMethod) {
  return withoutAbsent({
    id: m.id,
    accountId: m.accountId,
    type: m.type,
    nickname: m.nickname,
    credentialId: m.credentialId,
    otpEncryptionTargetBundle: m.otpEncryptionTargetBundle,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
  });
}

export function authSessionJson(s: AuthSession) {
  return withoutAbsent({
    id: s.id,
    accountId: s.accountId,
    type: s.type,
    nickname: s.nickname,
    encryptedSessionSigningKey: s.encryptedSessionSigningKey,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    expiresAt: s.expiresAt,
  });
}

export function challengeJson(c: SignedRetryChallenge) {
  return withoutAbsent({
    type: c.type,
    payloadToSign: c.payloadToSign,
    requestId: c.requestId,
    expiresAt: c.expiresAt,
  });
}

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
      res.status(200).json({ status: 'PROCESSING', message: outcome.value.message });
      return;
    case 'authMethod':
      res.status(successStatus).json(authMethodJson(outcome.value));
      return;
    case 'session':
      res.status(successStatus).json(authSessionJson(outcome.value));
      return;
    case 'passkeyChallenge': {
      const { authMethod, challenge, requestId, expiresAt } = outcome.value;
      res.status(successStatus).json({
        ...(authMethod ? authMethodJson(authMethod) : {}),
        challenge,
        requestId,
        expiresAt,
      });
      return;
    }
    case 'walletExport':
      res.status(successStatus).json({
        id: outcome.value.id,
        encryptedWalletCredentials: outcome.value.encryptedWalletCredentials,
      });
      return;
    case 'done':
      res.status(204).end();
      return;
    default:
      throw new Error(`unexpected wallet outcome ${outcome?.$case ?? 'none'}`);
  }
}
