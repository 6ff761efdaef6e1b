import { createWithinQuota } from '../../../../lib/quota';
import { AppError } from '../../../../lib/errors';
import { newId } from '../../../../lib/ids';
import { requestHash } from '../../domain/wallet-auth/canonical-json';
import { payloadToSign } from '../../domain/wallet-auth/payload-to-sign';
import { judgeRetry, type SignedRetryRecord, type SignerRule } from '../../domain/wallet-auth/signed-retry-record';
import type { Stamp } from '../../domain/wallet-crypto/stamp';
import type { KeyedLock } from '../../../../lib/keyed-lock';
import { checkSigner, parseStampHeader, type AssertionCheck, type SigningSessions } from './signing-check';
import type { SignedRetryStore } from './wallet-auth-stores';

export interface RequestInput {
  platformId: string;
  operation: string;
  targetId: string;
  body: unknown;
}

export interface BeginInput extends RequestInput {
  signer: SignerRule;
  type?: string;
  context?: Record<string, unknown>;
  /** Shown inside payloadToSign. */
  parameters?: Record<string, unknown>;
  /** Passkey challenges: the payload is made here and the body is first seen on the retry. */
  fixedPayload?: (requestId: string, issuedAt: Date) => string;
}

export interface ChallengeView {
  type?: string;
  payloadToSign: string;
  requestId: string;
  expiresAt: string;
}

export interface CompleteInput extends RequestInput {
  signature: { stamp?: string; requestId?: string };
  /** The caller settles the operation itself (SettleSignedRetry). */
  external?: boolean;
  /** Checks that need the retry, after the signature check and before the claim. */
  beforeClaim?: (record: SignedRetryRecord) => Promise<Record<string, unknown> | void>;
}

export interface Completion {
  record: SignedRetryRecord;
  /** This call claimed the challenge (and so started the operation). */
  claimedNow: boolean;
}

export interface SignedRetryDeps {
  store: SignedRetryStore;
  sessions: SigningSessions;
  lock: KeyedLock;
  ttlMs: number;
  now: () => Date;
  checkAssertion?: AssertionCheck;
  /** Caps on unused, unexpired challenges (an unsigned first leg costs a stored challenge). */
  maxPending?: { perWallet: number; perPlatform: number };
}

const VERDICT_ERRORS = {
  BODY_MISMATCH: () => new AppError('WALLET_SIGNATURE_BODY_MISMATCH', 'The retry differs from the challenged request'),
  EXPIRED: () => new AppError('SIGNED_RETRY_EXPIRED', 'The challenge expired; start again to get a new one'),
  ALREADY_USED: () => new AppError('REQUEST_ID_ALREADY_USED', 'This Request-Id was already used by another request'),
};

export function challengeView(record: SignedRetryRecord): ChallengeView {
  return {
    ...(record.type ? { type: record.type } : {}),
    payloadToSign: record.payloadToSign,
    requestId: record.id,
    expiresAt: record.expiresAt,
  };
}

/** The one signed-retry mechanism: challenge, signed retry, at-most-once claim, correlation. */
export function createSignedRetry(deps: SignedRetryDeps) {
  const newRun = (external: boolean, now: Date) => ({
    id: newId('Operation'),
    state: 'PENDING' as const,
    external,
    startedAt: now.toISOString(),
  });

  async function begin(input: BeginInput): Promise<ChallengeView> {
    const now = deps.now();
    const id = newId('Request');
    const hash = input.fixedPayload ? '' : requestHash(input);
    const record: SignedRetryRecord = {
      id,
      platformId: input.platformId,
      operation: input.operation,
      targetId: input.targetId,
      requestHash: hash,
      ...(input.type ? { type: input.type } : {}),
      payloadToSign: input.fixedPayload?.(id, now)
        ?? payloadToSign({
          operation: input.operation,
          platformId: input.platformId,
          requestId: id,
          issuedAt: now,
          requestHash: hash,
          parameters: input.parameters,
        }),
      signer: input.signer,
      context: input.context ?? {},
      state: 'ISSUED',
      issuedAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + deps.ttlMs).toISOString(),
    };
    await insertWithinQuotas(record, now);
    return challengeView(record);
  }

  /**
   * Inserts a challenge within the platform's and the wallet's caps on pending challenges (429 + Retry-After beyond).
   */
  async function insertWithinQuotas(record: SignedRetryRecord, now: Date): Promise<void> {
    if (!deps.maxPending) return deps.store.insert(record);
    const retryAfterSeconds = Math.ceil(deps.ttlMs / 1000);
    const wallet = typeof record.context.accountId === 'string' ? record.context.accountId : undefined;
    const undo = () => deps.store.removeIssued(record.id);
    const insertForWallet = () => (wallet
      ? createWithinQuota({
        what: 'pending signed-retry challenges per wallet',
        limit: deps.maxPending!.perWallet,
        retryAfterSeconds,
      }, {
        count: () => deps.store.countPending(record.platformId, wallet, now),
        create: () => deps.store.insert(record),
        undo,
      })
      : deps.store.insert(record));
    await createWithinQuota({
      what: 'pending signed-retry challenges per platform',
      limit: deps.maxPending.perPlatform,
      retryAfterSeconds,
    }, {
      count: () => deps.store.countPending(record.platformId, undefined, now),
      create: insertForWallet,
      undo,
    });
  }

  async function complete(input: CompleteInput): Promise<Completion> {
    const { stamp: header, requestId } = input.signature;
    if (!requestId) throw new AppError('REQUEST_ID_MISSING', 'Request-Id is required on the signed retry');
    const stamp: Stamp | undefined = header === undefined ? undefined : parseStampHeader(header);
    const found = await deps.store.find(input.platformId, requestId);
    if (!found) {
      if (!stamp && !header) {
        throw new AppError('WALLET_SIGNATURE_MISSING', 'Service-Wallet-Signature is required on the signed retry');
      }
      throw new AppError('WALLET_SIGNATURE_INVALID', 'No challenge was issued with this Request-Id');
    }
    const hash = requestHash(input);
    const attempt = {
      operation: input.operation,
      targetId: input.targetId,
      requestHash: hash,
      proof: found.signer.kind === 'assertion' ? hash : header ?? '',
    };
    if (found.signer.kind !== 'assertion' && !header) {
      throw new AppError('WALLET_SIGNATURE_MISSING', 'Service-Wallet-Signature is required on the signed retry');
    }

    return deps.lock.run(requestId, async () => {
      const judge = (record: SignedRetryRecord): Completion | undefined => {
        const verdict = judgeRetry(record, attempt, deps.now());
        if (verdict === 'CORRELATE') return { record, claimedNow: false };
        if (verdict !== 'VERIFY_AND_CLAIM') throw VERDICT_ERRORS[verdict]();
        return undefined;
      };
      const record = (await deps.store.find(input.platformId, requestId)) ?? found;
      const settled = judge(record);
      if (settled) return settled;
      const now = deps.now();
      await checkSigner({
        record,
        stamp,
        body: input.body,
        sessions: deps.sessions,
        checkAssertion: deps.checkAssertion,
        now,
      });
      const contextPatch = (await input.beforeClaim?.(record)) ?? undefined;
      const claim = { proof: attempt.proof, requestHash: hash, claimedAt: now.toISOString() };
      const claimed = await deps.store.claim({
        id: record.id,
        claim,
        run: newRun(input.external ?? false, now),
        now,
        contextPatch,
      });
      if (claimed) return { record: claimed, claimedNow: true };
      const winner = await deps.store.find(input.platformId, requestId);
      return judge(winner!) ?? Promise.reject(VERDICT_ERRORS.EXPIRED());
    });
  }

  /**
   * Operations without a signature (the first credential of an account, OAUTH verify):
   * identical re-sends find the operation started by the first, by request hash.
   */
  async function startUnsigned(
    input: RequestInput & {
      type?: string;
      context?: Record<string, unknown>;
      check?: () => Promise<Record<string, unknown>>;
    },
  ): Promise<Completion> {
    const hash = requestHash(input);
    const dedupKey = `${input.platformId}|${hash}`;
    const existing = await deps.store.findByDedupKey(dedupKey);
    if (existing) return { record: existing, claimedNow: false };
    const extra = (await input.check?.()) ?? {};
    const now = deps.now();
    const record: SignedRetryRecord & { dedupKey: string } = {
      id: newId('Request'),
      platformId: input.platformId,
      operation: input.operation,
      targetId: input.targetId,
      requestHash: hash,
      ...(input.type ? { type: input.type } : {}),
      payloadToSign: '',
      signer: { kind: 'none' },
      context: { ...input.context, ...extra },
      state: 'CLAIMED',
      issuedAt: now.toISOString(),
      expiresAt: now.toISOString(),
      claim: { proof: hash, requestHash: hash, claimedAt: now.toISOString() },
      run: newRun(false, now),
      dedupKey,
    };
    const stored = await deps.store.insertOrFind(record);
    return { record: stored, claimedNow: stored.id === record.id };
  }

  return { begin, complete, startUnsigned };
}

export type SignedRetry = ReturnType<typeof createSignedRetry>;

/** True when the request carries neither signature header: the first call of the pattern. */
export function isFirstCall(signature: { stamp?: string; requestId?: string } | undefined): boolean {
  return signature?.stamp === undefined && signature?.requestId === undefined;
}
