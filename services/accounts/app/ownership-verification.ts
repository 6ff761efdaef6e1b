import { randomUUID } from 'node:crypto';
import type { NewEvent } from '../../../lib/bus/outbox';
import { AppError } from '../../../lib/errors';
import type { ExternalAccount, ExternalAccountStatus } from '../domain/external-account';
import type { ExternalAccountOwner } from '../domain/external-account-validation';
import {
  assertOwnershipChallengeable,
  challengeView,
  newOwnershipChallenge,
  outstandingSignatureChallenge,
  OWNERSHIP_METHODS,
  sandboxLivenessOutcome,
  type OwnershipChallengeView,
} from '../domain/ownership-challenge';
import { hasSignatureCheck, signatureProvesOwnership } from '../domain/ownership-signature';
import { externalAccountStatusUpdated } from './account-events';
import type { AccountsStore } from './accounts-store';

export interface OwnershipSettings {
  challengeTtlMs: number;
  /** Sandbox: LIVENESS and non-EVM signatures are simulated; otherwise they are NOT_IMPLEMENTED. */
  sandbox: boolean;
  liveness: { baseUrl: string; delayMs: number };
}

export interface OwnershipVerification {
  challenge(
    platformId: string,
    id: string,
    owner: ExternalAccountOwner | undefined,
    request: { method?: string },
  ): Promise<OwnershipChallengeView>;
  verify(
    platformId: string,
    id: string,
    owner: ExternalAccountOwner | undefined,
    request: { signature?: string; signatureScheme?: string },
  ): Promise<ExternalAccount>;
  /** Sandbox: reports the outcome of hosted liveness checks that are due; answers how many. */
  completeDueLiveness(limit: number): Promise<number>;
}

type OwnershipMethod = (typeof OWNERSHIP_METHODS)[number];

/** The method asked for (the contract checks it; a caller that skipped the contract hears the same). */
function methodOf(method: string | undefined): OwnershipMethod {
  if (OWNERSHIP_METHODS.includes(method as OwnershipMethod)) return method as OwnershipMethod;
  throw AppError.invalidInput('Invalid ownership verification request', [{
    field: 'method',
    message: `must be one of ${OWNERSHIP_METHODS.join(', ')}`,
    constraint: { enum: [...OWNERSHIP_METHODS] },
  }]);
}

const lostRace = () => new AppError('CONFLICT', 'The ownership challenge changed concurrently; start a new challenge');

/**
 * Ownership verification of FIRST_PARTY self-custody wallets: a challenge, then a wallet
 * signature checked synchronously (EIP-191 for EVM addresses) or a hosted liveness check that
 * completes later. Every status change is a conditional update with EXTERNAL_ACCOUNT.STATUS_UPDATED.
 */
export function createOwnershipVerification(
  deps: { store: AccountsStore; newEvent: NewEvent; clock: () => Date; settings: OwnershipSettings },
): OwnershipVerification {
  const accounts = deps.store.externalAccounts;
  const { settings } = deps;

  const find = async (platformId: string, id: string, owner: ExternalAccountOwner | undefined) => {
    const account = await accounts.find(platformId, id);
    const ownedBy = owner === undefined || (owner === 'CUSTOMER') === (account?.customerId !== undefined);
    if (!account || !ownedBy) throw AppError.notFound('External account');
    return account;
  };

  const settle = async (account: ExternalAccount, nonce: string, to: ExternalAccountStatus) => {
    const event = externalAccountStatusUpdated(deps.newEvent, { ...account, status: to }, account.status);
    return accounts.completeOwnershipChallenge({
      platformId: account.platformId,
      id: account.id,
      nonce,
      to,
      now: deps.clock().toISOString(),
      events: [event],
    });
  };

  return {
    async challenge(platformId, id, owner, request) {
      const method = methodOf(request.method);
      const account = await find(platformId, id, owner);
      assertOwnershipChallengeable(account);
      if (!settings.sandbox && (method === 'LIVENESS' || !hasSignatureCheck(String(account.accountInfo.accountType)))) {
        throw new AppError(
          'NOT_IMPLEMENTED',
          `${method} verification of this wallet type is available in the sandbox only`,
        );
      }
      const now = deps.clock();
      const challenge = newOwnershipChallenge({
        account,
        method,
        nonce: randomUUID(),
        now,
        ttlMs: settings.challengeTtlMs,
        liveness: settings.liveness,
      });
      const to: ExternalAccountStatus = 'PENDING_OWNERSHIP_VERIFICATION';
      const events = account.status === to
        ? []
        : [externalAccountStatusUpdated(deps.newEvent, { ...account, status: to }, account.status)];
      const started = await accounts.startOwnershipChallenge({
        platformId,
        id,
        from: account.status,
        challenge,
        now: now.toISOString(),
        events,
      });
      if (!started) throw lostRace();
      return challengeView(challenge);
    },

    async verify(platformId, id, owner, request) {
      const signature = request.signature ?? '';
      if (!signature) {
        throw AppError.invalidInput('Invalid ownership verification request', [{
          field: 'signature',
          message: 'is required',
        }]);
      }
      const account = await find(platformId, id, owner);
      const challenge = outstandingSignatureChallenge(account);
      const expired = deps.clock().toISOString() > challenge.expiresAt;
      const proven = !expired
        && signatureProvesOwnership(
          String(account.accountInfo.accountType),
          String(account.accountInfo.address),
          challenge.messageToSign!,
          signature,
        );
      const settled = await settle(account, challenge.nonce, proven ? 'ACTIVE' : 'UNVERIFIED');
      if (!settled) throw lostRace();
      if (!proven) {
        const message = expired
          ? 'The challenge expired; start a new challenge'
          : 'The signature does not prove control of the wallet over messageToSign';
        throw AppError.invalidInput(`Ownership verification failed: the account is now UNVERIFIED. ${message}`, [{
          field: 'signature',
          message,
        }]);
      }
      return settled;
    },

    async completeDueLiveness(limit) {
      const due = await accounts.findDueLivenessChallenges(deps.clock().toISOString(), limit);
      let completed = 0;
      for (const account of due) {
        if (await settle(account, account.ownershipChallenge!.nonce, sandboxLivenessOutcome(account))) completed++;
      }
      return completed;
    },
  };
}
