import { randomUUID } from 'node:crypto';
import { AppError } from '../../../../lib/errors';
import type { Logger } from '../../../../lib/log';
import { createPeriodicTask } from '../../../../lib/runtime/periodic-task';
import {
  decideKeyedRequest,
  isStoredResponse,
  type KeyedRequest,
  type KeyedRequestRecord,
  type KeyedRequestScope,
  type KeyedResponse,
} from '../domain/keyed-request';

/** Where the records live; every write is one conditional single-record write. */
export interface KeyedRequestStore {
  ensureIndexes(): Promise<void>;
  /** False when the scope's key already has a record. */
  insert(record: KeyedRequestRecord): Promise<boolean>;
  get(scope: KeyedRequestScope): Promise<KeyedRequestRecord | null>;
  /** Hands an IN_FLIGHT record from `claim` to `next`; false when `claim` no longer holds it. */
  takeOver(scope: KeyedRequestScope, claim: string, next: { claim: string; leaseUntil: Date }): Promise<boolean>;
  /** IN_FLIGHT under `claim` → DONE with the response; false when `claim` no longer holds it. */
  complete(
    scope: KeyedRequestScope,
    claim: string,
    done: { response: KeyedResponse; expiresAt: Date },
  ): Promise<boolean>;
  /** Deletes the record if `claim` still holds it. */
  remove(scope: KeyedRequestScope, claim: string): Promise<boolean>;
  /** Deletes every record that expired at or before `now`; answers how many. */
  purgeExpired(now: Date): Promise<number>;
}

export interface KeyedRequestTiming {
  /** An IN_FLIGHT record whose holder has not finished within this is presumed crashed. */
  leaseMs: number;
  /** How long a key is remembered after its request (at least 24 hours, as Grid promises). */
  retentionMs: number;
}

export type BeginOutcome = { outcome: 'STARTED'; claim: string } | { outcome: 'REPLAY'; response: KeyedResponse };

/** A request holding its key cannot run, and a race lost this many times is reported as in flight. */
const MAX_ATTEMPTS = 5;

function inFlight(): AppError {
  return new AppError('CONFLICT', 'A request with this Idempotency-Key is still in progress; retry later', {
    reason: 'IDEMPOTENCY_KEY_IN_FLIGHT',
  });
}

function reused(reason: 'OTHER_OPERATION' | 'OTHER_BODY'): AppError {
  const message = reason === 'OTHER_OPERATION'
    ? 'This Idempotency-Key was already used for another operation'
    : 'This Idempotency-Key was already used with a different request body';
  return new AppError('IDEMPOTENCY_KEY_REUSED', message, { reason });
}

/** The Idempotency-Key rule every keyed REST operation follows (see docs/idempotency.md). */
export function createKeyedRequests(
  deps: { store: KeyedRequestStore; clock: () => Date; timing: KeyedRequestTiming; newClaim?: () => string },
) {
  const { store, clock, timing } = deps;
  const newClaim = deps.newClaim ?? randomUUID;
  const later = (now: Date, ms: number) => new Date(now.getTime() + ms);

  async function begin(request: KeyedRequest): Promise<BeginOutcome> {
    const claim = newClaim();
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const now = clock();
      const fresh: KeyedRequestRecord = {
        ...request,
        claim,
        state: 'IN_FLIGHT',
        leaseUntil: later(now, timing.leaseMs),
        createdAt: now,
        expiresAt: later(now, timing.retentionMs),
      };
      if (await store.insert(fresh)) return { outcome: 'STARTED', claim };
      const existing = await store.get(request);
      if (!existing) continue;
      const decision = decideKeyedRequest(existing, request, now);
      switch (decision.kind) {
        case 'replay':
          return { outcome: 'REPLAY', response: decision.response };
        case 'reused':
          throw reused(decision.reason);
        case 'in-flight':
          throw inFlight();
        case 'take-over':
          if (await store.takeOver(request, existing.claim, { claim, leaseUntil: later(now, timing.leaseMs) })) {
            return { outcome: 'STARTED', claim };
          }
          break;
        case 'expired':
          await store.remove(request, existing.claim);
          break;
      }
    }
    throw inFlight();
  }

  /** Stores the response for repeats; one that is not kept (a 5xx) frees the key instead. */
  async function complete(scope: KeyedRequestScope, claim: string, response: KeyedResponse): Promise<boolean> {
    if (!isStoredResponse(response.status)) {
      await store.remove(scope, claim);
      return false;
    }
    return store.complete(scope, claim, { response, expiresAt: later(clock(), timing.retentionMs) });
  }

  async function release(scope: KeyedRequestScope, claim: string): Promise<void> {
    await store.remove(scope, claim);
  }

  return { begin, complete, release };
}

export type KeyedRequests = ReturnType<typeof createKeyedRequests>;

/** Keys are forgotten once their retention has passed, so the records do not grow for ever. */
export function createKeyedRequestRetention(
  deps: { store: KeyedRequestStore; clock: () => Date; logger: Logger; intervalMs?: number },
) {
  return createPeriodicTask({
    name: 'idempotency key retention',
    intervalMs: deps.intervalMs ?? 60_000,
    logger: deps.logger,
    run: () => deps.store.purgeExpired(deps.clock()),
  });
}
