/**
 * One Idempotency-Key's record (IETF draft-ietf-httpapi-idempotency-key-header): which request
 * holds it, and once done the response a repeat gets. Pure rules; the store keeps the records.
 */
export interface KeyedRequestScope {
  platformId: string;
  /** Agent routes: each agent's keys are its own. */
  agentId?: string;
  key: string;
}

export interface KeyedResponse {
  status: number;
  /** The JSON body's exact text, as first sent. */
  body: string;
}

export interface KeyedRequest extends KeyedRequestScope {
  /** Method and concrete path: `POST /quotes/Quote:…/execute`. */
  operation: string;
  fingerprint: string;
}

export type KeyedRequestRecord = KeyedRequest & {
  /** Who holds the key while IN_FLIGHT; a takeover changes it, so a stale holder stores nothing. */
  claim: string;
  state: 'IN_FLIGHT' | 'DONE';
  /** IN_FLIGHT: after this the holder is presumed dead (a crash) and a repeat takes the key over. */
  leaseUntil: Date;
  response?: KeyedResponse;
  createdAt: Date;
  /** Purged after this: `createdAt` plus the retention. */
  expiresAt: Date;
};

export type KeyedRequestDecision =
  | { kind: 'replay'; response: KeyedResponse }
  | { kind: 'reused'; reason: 'OTHER_OPERATION' | 'OTHER_BODY' }
  | { kind: 'in-flight' }
  | { kind: 'take-over' }
  /** Past its retention but not purged yet: as if absent. */
  | { kind: 'expired' };

/** What a request meeting an existing record gets. */
export function decideKeyedRequest(record: KeyedRequestRecord, request: KeyedRequest, now: Date): KeyedRequestDecision {
  if (record.expiresAt <= now) return { kind: 'expired' };
  if (record.operation !== request.operation) return { kind: 'reused', reason: 'OTHER_OPERATION' };
  if (record.fingerprint !== request.fingerprint) return { kind: 'reused', reason: 'OTHER_BODY' };
  if (record.state === 'DONE' && record.response) return { kind: 'replay', response: record.response };
  return record.leaseUntil > now ? { kind: 'in-flight' } : { kind: 'take-over' };
}

/**
 * Which answers are kept for repeats: not a 5xx (the request may not have run; a retry should run
 * it), not a 401 (credentials or a wallet signature missing: the signed retry carries the same
 * key) and not a 429 (refused before it ran).
 */
export function isStoredResponse(status: number): boolean {
  return status < 500 && status !== 401 && status !== 429;
}
