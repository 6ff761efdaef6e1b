import { createWithinQuota } from '../../../../lib/quota';
import { AppError } from '../../../../lib/errors';
import { newId } from '../../../../lib/ids';
import type { Card } from '../../cards/domain/card';
import {
  cardFundingSourceId,
  checkRevocable,
  delegatedKeyRequestErrors,
  delegationRefusal,
  limitCurrencyErrors,
  type DelegatedKey,
  type DelegatedKeyRequest,
  type DelegationRefusal,
  type WalletFundedSpend,
} from '../domain/delegated-key';
import type { Caller } from '../../shared/app/payment-accounts';
import { ActiveKeyExists, type DelegatedKeyStore } from './delegated-key-store';

/** Generates a key pair for a delegated key: the public key, and the private one sealed to that key id. */
export interface KeyCustody {
  generate(keyId: string): { publicKey: string; sealedPrivateKey: string };
}

export interface Challenge {
  payloadToSign: string;
  requestId: string;
  expiresAt: string;
}

export interface Signature {
  stamp?: string;
  requestId?: string;
}

/**
 * The auth service's signed retry (its SignedRetryService): it issues challenges, checks the
 * stamp against the wallet's active sessions and lets one retry claim each challenge.
 */
export interface WalletSignatures {
  begin(
    caller: Caller,
    input: {
      operation: string;
      targetId: string;
      body: unknown;
      accountId: string;
      parameters: Record<string, unknown>;
    },
  ): Promise<Challenge>;
  /** Throws the signed retry's 401s; answers whether this call claimed it (else an identical retry did). */
  complete(
    caller: Caller,
    input: { operation: string; targetId: string; body: unknown; signature: Signature },
  ): Promise<{ state: 'CLAIMED' | 'PROCESSING' | 'SETTLED'; requestId: string }>;
  settle(
    caller: Caller,
    requestId: string,
    outcome: { result: Record<string, unknown> } | { errorCode: string; errorMessage: string },
  ): Promise<void>;
}

/** The operations the two signed legs are recorded under by the auth service. */
export const CREATE_OPERATION = 'delegated-key.create';
export const POLICY_OPERATION = 'delegated-key.grant-policy';

export type CreateOutcome = { kind: 'challenge'; challenge: Challenge } | { kind: 'key'; key: DelegatedKey };

const MAX_LISTED = 1_000;

/**
 * Delegated keys (reference: Embedded Wallet Auth, /auth/delegated-keys). Creation is three legs
 * over one request body: the first call generates the key and answers the creation challenge; its
 * signed retry makes the key PENDING and answers the policy challenge; that one's signed retry
 * makes it ACTIVE. Both stamps must come from an active session of the wallet funding the card.
 */
export function createDelegatedKeys(deps: {
  store: DelegatedKeyStore;
  custody: KeyCustody;
  signatures: WalletSignatures;
  clock: () => Date;
  card: (caller: Caller, id: string) => Promise<Card>;
  /** Unsigned first legs (keys left CREATING) one platform may begin per hour; beyond: 429. */
  maxUnsignedPerPlatformPerHour?: number;
}) {
  const now = () => deps.clock().toISOString();
  const signedBody = (r: DelegatedKeyRequest) => ({
    cardId: r.cardId,
    internalAccountId: r.internalAccountId,
    nickname: r.nickname,
    ...(r.spendingLimits ? { spendingLimits: r.spendingLimits } : {}),
  });

  async function begin(caller: Caller, request: DelegatedKeyRequest): Promise<CreateOutcome> {
    const card = await deps.card(caller, request.cardId).catch((err: unknown) => {
      if (err instanceof AppError && err.code === 'NOT_FOUND') throw AppError.notFound(`Card ${request.cardId}`);
      throw err;
    });
    if (
      !card.fundingSources.includes(request.internalAccountId)
      || !(card.walletSources ?? []).includes(request.internalAccountId)
    ) {
      throw AppError.notFound(`Embedded Wallet funding source ${request.internalAccountId} of card ${card.id}`);
    }
    const currencyErrors = limitCurrencyErrors(request.spendingLimits, card.currency);
    if (currencyErrors.length) throw AppError.invalidInput('Invalid delegated key', currencyErrors);
    const fundingSourceId = cardFundingSourceId(card.id, request.internalAccountId);
    if (await deps.store.active(caller.platformId, fundingSourceId)) throw activeExists();
    const id = newId('DelegatedKey');
    const { publicKey, sealedPrivateKey } = deps.custody.generate(id);
    const challenge = await deps.signatures.begin(caller, {
      operation: CREATE_OPERATION,
      targetId: fundingSourceId,
      body: signedBody(request),
      accountId: request.internalAccountId,
      parameters: {
        delegatedKeyId: id,
        cardId: card.id,
        fundingSourceId,
        accountId: request.internalAccountId,
        publicKey,
      },
    });
    const at = now();
    const quota = {
      what: 'unsigned delegated-key requests per platform per hour',
      limit: deps.maxUnsignedPerPlatformPerHour ?? Number.POSITIVE_INFINITY,
      retryAfterSeconds: 3600,
    };
    await createWithinQuota(quota, {
      count: () =>
        deps.store.countCreatingSince(caller.platformId, new Date(deps.clock().getTime() - 3_600_000).toISOString()),
      create: () =>
        deps.store.insert({
          id,
          platformId: caller.platformId,
          cardId: card.id,
          fundingSourceId,
          accountId: request.internalAccountId,
          publicKey,
          sealedPrivateKey,
          nickname: request.nickname,
          status: 'CREATING',
          ...(request.spendingLimits ? { spendingLimits: request.spendingLimits } : {}),
          createRequestId: challenge.requestId,
          createdAt: at,
          updatedAt: at,
        }),
      undo: () => deps.store.discardCreating(id),
    });
    return { kind: 'challenge', challenge };
  }

  /** Leg 2: the creation is signed; the key is PENDING and the policy challenge goes out (once, whoever re-sends). */
  async function signCreation(
    caller: Caller,
    key: DelegatedKey,
    request: DelegatedKeyRequest,
    signature: Signature,
  ): Promise<CreateOutcome> {
    const claim = await deps.signatures.complete(caller, {
      operation: CREATE_OPERATION,
      targetId: key.fundingSourceId,
      body: signedBody(request),
      signature,
    });
    let current = key;
    if (current.status === 'CREATING') {
      const policyChallenge = await deps.signatures.begin(caller, {
        operation: POLICY_OPERATION,
        targetId: key.id,
        body: signedBody(request),
        accountId: key.accountId,
        parameters: { delegatedKeyId: key.id, publicKey: key.publicKey, policies: ['SIGN_RAW_PAYLOAD', 'DELETE_SELF'] },
      });
      current = (await deps.store.markPending(key.id, policyChallenge, now()))
        ?? (await deps.store.get(caller.platformId, key.id))!;
    }
    if (claim.state === 'CLAIMED') {
      await deps.signatures.settle(caller, claim.requestId, { result: { delegatedKeyId: key.id } });
    }
    return { kind: 'challenge', challenge: current.policyChallenge! };
  }

  /** Leg 3: the policy is signed; the key is ACTIVE unless the funding source got another ACTIVE key meanwhile. */
  async function signPolicy(
    caller: Caller,
    key: DelegatedKey,
    request: DelegatedKeyRequest,
    signature: Signature,
  ): Promise<CreateOutcome> {
    const claim = await deps.signatures.complete(caller, {
      operation: POLICY_OPERATION,
      targetId: key.id,
      body: signedBody(request),
      signature,
    });
    let activated: DelegatedKey | null = null;
    try {
      activated = await deps.store.activate(key.id, now());
    } catch (err) {
      if (!(err instanceof ActiveKeyExists)) throw err;
      const conflict = activeExists();
      if (claim.state === 'CLAIMED') {
        await deps.signatures.settle(caller, claim.requestId, {
          errorCode: conflict.code,
          errorMessage: conflict.message,
        });
      }
      throw conflict;
    }
    const current = activated ?? (await deps.store.get(caller.platformId, key.id))!;
    if (claim.state === 'CLAIMED') {
      await deps.signatures.settle(caller, claim.requestId, { result: { delegatedKeyId: key.id } });
    }
    return { kind: 'key', key: current };
  }

  async function create(caller: Caller, request: DelegatedKeyRequest, signature: Signature): Promise<CreateOutcome> {
    const errors = delegatedKeyRequestErrors(request);
    if (errors.length) throw AppError.invalidInput('Invalid delegated key', errors);
    if (signature.stamp === undefined && signature.requestId === undefined) return begin(caller, request);
    const key = signature.requestId ? await deps.store.byRequestId(caller.platformId, signature.requestId) : null;
    if (!key) {
      // Not one of ours: the signed retry answers why (no Request-Id, no stamp, no such challenge, another
      // operation's).
      await deps.signatures.complete(caller, {
        operation: CREATE_OPERATION,
        targetId: '',
        body: signedBody(request),
        signature,
      });
      throw new AppError('WALLET_SIGNATURE_INVALID', 'No delegated-key challenge was issued with this Request-Id');
    }
    const sameRequest = key.cardId === request.cardId && key.accountId === request.internalAccountId;
    if (!sameRequest) {
      throw new AppError('WALLET_SIGNATURE_BODY_MISMATCH', 'The retry differs from the challenged request');
    }
    return key.createRequestId === signature.requestId
      ? signCreation(caller, key, request, signature)
      : signPolicy(caller, key, request, signature);
  }

  async function get(caller: Caller, id: string): Promise<DelegatedKey> {
    const key = await deps.store.get(caller.platformId, id);
    if (!key || key.status === 'CREATING') throw AppError.notFound(`Delegated key ${id}`);
    return key;
  }

  async function list(
    caller: Caller,
    filter: { accountId?: string; fundingSourceId?: string },
  ): Promise<DelegatedKey[]> {
    if (!filter.accountId && !filter.fundingSourceId) {
      throw AppError.invalidInput('At least one of accountId or fundingSourceId is required', [
        { field: 'accountId', message: 'accountId or fundingSourceId is required' },
        { field: 'fundingSourceId', message: 'accountId or fundingSourceId is required' },
      ]);
    }
    return deps.store.list(caller.platformId, filter, MAX_LISTED);
  }

  async function revoke(caller: Caller, id: string): Promise<DelegatedKey> {
    const key = await get(caller, id);
    checkRevocable(key);
    const revoked = await deps.store.revoke(caller.platformId, id, now());
    if (!revoked) checkRevocable(await get(caller, id));
    return revoked ?? get(caller, id);
  }

  /**
   * A card's sources changed or it closed: keys of wallets it no longer binds are revoked, so
   * binding the wallet again needs the owner's signatures again (its funding-source id would be the same).
   */
  async function revokeUnbound(caller: Caller, card: Card): Promise<void> {
    const bound = new Set(card.state === 'CLOSED' ? [] : card.fundingSources);
    for (const key of await deps.store.activeOfCard(caller.platformId, card.id)) {
      if (!bound.has(key.accountId)) await deps.store.revoke(caller.platformId, key.id, now());
    }
  }

  /**
   * The repair of `revokeUnbound` lost to a crash between a card change and its hook: ACTIVE keys
   * whose card (closed, gone) no longer binds their wallet are revoked. Each page of keys is read
   * before its cards, so a key activated after its card was read is never judged by that older card.
   */
  async function revokeStale(pageSize = 100): Promise<number> {
    let revoked = 0;
    let after: string | undefined;
    for (;;) {
      const page = await deps.store.activeAfter(after, pageSize);
      const bindings = new Map<string, Promise<Set<string>>>();
      for (const key of page) {
        const cardKey = `${key.platformId}|${key.cardId}`;
        if (!bindings.has(cardKey)) bindings.set(cardKey, boundWallets({ platformId: key.platformId }, key.cardId));
        if (
          !(await bindings.get(cardKey)!).has(key.accountId) && await deps.store.revoke(key.platformId, key.id, now())
        ) revoked++;
      }
      if (page.length < pageSize) return revoked;
      after = page[page.length - 1]!.id;
    }
  }

  async function boundWallets(caller: Caller, cardId: string): Promise<Set<string>> {
    try {
      const card = await deps.card(caller, cardId);
      return new Set(card.state === 'CLOSED' ? [] : card.fundingSources);
    } catch (err) {
      if (err instanceof AppError && err.code === 'NOT_FOUND') return new Set();
      throw err;
    }
  }

  /** Keys whose first challenge was never signed: long expired, they can never advance. */
  const purgeAbandoned = (olderThanMs: number) =>
    deps.store.purgeCreating(new Date(deps.clock().getTime() - olderThanMs).toISOString());

  /** Decisioning's question for an embedded-wallet funding source of a card. */
  async function refusal(spend: WalletFundedSpend): Promise<DelegationRefusal | undefined> {
    const { platformId, cardId, accountId, currency, amount } = spend;
    const key = await deps.store.active(platformId, cardFundingSourceId(cardId, accountId));
    return delegationRefusal(key, currency, amount);
  }

  return { create, get, list, revoke, refusal, revokeUnbound, revokeStale, purgeAbandoned };
}

function activeExists(): AppError {
  return new AppError(
    'CONFLICT',
    'An ACTIVE delegated key exists for this card funding '
      + 'source; revoke it with DELETE /auth/delegated-keys/{id} first',
  );
}

export type DelegatedKeys = ReturnType<typeof createDelegatedKeys>;
