import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Caller } from '../http/call-context';

/**
 * A signed-in dashboard session, held by this gateway process only (never sent to the browser but its id and CSRF
 * token).
 */
export interface DashboardSession {
  /** The Basic credential the session stands for: each API call is authenticated with it as if sent by the client. */
  authorization: string;
  tokenId: string;
  /** Sent to the browser in the session's JSON, echoed in X-CSRF-Token on every state-changing request. */
  csrfToken: string;
  expiresAt: number;
}

export interface SessionStoreOptions {
  /** How long a session lasts from sign-in (default 8 hours). */
  ttlMs?: number;
  /** Sessions held at most; the oldest is ended first (default 10,000). */
  maxSessions?: number;
  now?: () => number;
}

const newSecret = () => randomBytes(32).toString('base64url');
/** The store keys sessions by the SHA-256 of their id: a dump of memory holds no cookie value. */
const keyOf = (sessionId: string) => hash('sha256', sessionId, 'base64');

/** Whether two strings are equal, in time independent of where they differ. */
export function sameSecret(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(hash('sha256', a, 'buffer')), Buffer.from(hash('sha256', b, 'buffer'))];
  return timingSafeEqual(x, y);
}

/**
 * The dashboard's sessions in memory: a random 256-bit id (the cookie), a random CSRF token, an
 * absolute expiry. Ending a session forgets it at once, so its cookie is refused afterwards. A
 * revoked token's sessions need no ending here: every request re-checks the token's credential.
 */
export function createSessionStore(options: SessionStoreOptions = {}) {
  const ttlMs = options.ttlMs ?? 8 * 3600_000;
  const maxSessions = options.maxSessions ?? 10_000;
  const now = options.now ?? Date.now;
  const sessions = new Map<string, DashboardSession>();

  return {
    ttlMs,
    open(caller: Pick<Caller, 'tokenId'>, authorization: string): { sessionId: string; session: DashboardSession } {
      while (sessions.size >= maxSessions) sessions.delete(sessions.keys().next().value!);
      const sessionId = newSecret();
      const session = { authorization, tokenId: caller.tokenId, csrfToken: newSecret(), expiresAt: now() + ttlMs };
      sessions.set(keyOf(sessionId), session);
      return { sessionId, session };
    },
    /** The live session with this id; an expired one is forgotten and answered as none. */
    find(sessionId: string): DashboardSession | undefined {
      const key = keyOf(sessionId);
      const session = sessions.get(key);
      if (session && session.expiresAt <= now()) sessions.delete(key);
      return session && session.expiresAt > now() ? session : undefined;
    },
    end(sessionId: string): void {
      sessions.delete(keyOf(sessionId));
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
