import { AppError } from '../../../lib/errors';
import type { ExternalAccount, ExternalAccountStatus } from './external-account';
import { isSelfCustodyWallet } from './wallet-account-info';

import { OWNERSHIP_METHODS } from '../../../lib/contract/account-vocabulary';

export { OWNERSHIP_METHODS };
export type OwnershipMethod = (typeof OWNERSHIP_METHODS)[number];
/** The sandbox's hosted liveness check fails for a wallet whose beneficiary has this name. */
export const SANDBOX_LIVENESS_FAILURE_NAME = 'sandbox liveness failed';

/** The outstanding ownership challenge of an external account (stored on it, never returned whole). */
export interface OwnershipChallengeRecord {
  method: OwnershipMethod;
  /** Identifies this challenge: a verification applies only to the challenge it answers. */
  nonce: string;
  messageToSign?: string;
  verificationLink?: string;
  issuedAt: string;
  expiresAt: string;
  /** LIVENESS in the sandbox: when the simulated hosted check reports its outcome. */
  completesAt?: string;
}

/** The REST OwnershipChallenge. */
export interface OwnershipChallengeView {
  method: OwnershipMethod;
  messageToSign?: string;
  verificationLink?: string;
  expiresAt: string;
}

const CHALLENGEABLE: readonly ExternalAccountStatus[] = ['PENDING_OWNERSHIP_VERIFICATION', 'UNVERIFIED'];

/** CONFLICT unless the account is a FIRST_PARTY self-custody wallet not yet verified. */
export function assertOwnershipChallengeable(account: ExternalAccount): void {
  const type = String(account.accountInfo.accountType);
  if (account.ownershipType !== 'FIRST_PARTY' || !isSelfCustodyWallet(type)) {
    throw new AppError('CONFLICT', 'Ownership verification applies only to FIRST_PARTY self-custody wallet accounts', {
      status: account.status,
    });
  }
  if (!CHALLENGEABLE.includes(account.status)) {
    throw new AppError('CONFLICT', `Ownership verification does not apply to an account in status ${account.status}`, {
      status: account.status,
    });
  }
}

export function newOwnershipChallenge(input: {
  account: ExternalAccount;
  method: OwnershipMethod;
  nonce: string;
  now: Date;
  ttlMs: number;
  liveness: { baseUrl: string; delayMs: number };
}): OwnershipChallengeRecord {
  const { account, method, nonce, now } = input;
  const expiresAt = new Date(now.getTime() + input.ttlMs).toISOString();
  const base = { method, nonce, issuedAt: now.toISOString(), expiresAt };
  if (method === 'WALLET_SIGNATURE') {
    const address = String(account.accountInfo.address);
    return {
      ...base,
      messageToSign:
        `I verify that I control this wallet ${address} (${account.id}). Nonce: ${nonce}. Expires: ${expiresAt}`,
    };
  }
  return {
    ...base,
    verificationLink: `${input.liveness.baseUrl.replace(/\/$/, '')}/session/${nonce}`,
    completesAt: new Date(now.getTime() + input.liveness.delayMs).toISOString(),
  };
}

export function challengeView(c: OwnershipChallengeRecord): OwnershipChallengeView {
  return c.method === 'WALLET_SIGNATURE'
    ? { method: c.method, messageToSign: c.messageToSign, expiresAt: c.expiresAt }
    : { method: c.method, verificationLink: c.verificationLink, expiresAt: c.expiresAt };
}

/** CONFLICT unless a WALLET_SIGNATURE challenge is outstanding on the account. */
export function outstandingSignatureChallenge(account: ExternalAccount): OwnershipChallengeRecord {
  const challenge = account.ownershipChallenge;
  if (account.status !== 'PENDING_OWNERSHIP_VERIFICATION' || challenge?.method !== 'WALLET_SIGNATURE') {
    throw new AppError(
      'CONFLICT',
      'No WALLET_SIGNATURE challenge is outstanding for this external account; start a challenge first',
    );
  }
  return challenge;
}

/** The simulated hosted check's outcome: success unless the beneficiary carries the magic name. */
export function sandboxLivenessOutcome(account: ExternalAccount): 'ACTIVE' | 'UNVERIFIED' {
  const beneficiary = account.accountInfo.beneficiary as { fullName?: string; legalName?: string } | undefined;
  const name = (beneficiary?.fullName ?? beneficiary?.legalName ?? '').trim().toLowerCase();
  return name === SANDBOX_LIVENESS_FAILURE_NAME ? 'UNVERIFIED' : 'ACTIVE';
}
