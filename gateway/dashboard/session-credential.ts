import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../../lib/errors';
import { hasSessionCookie, sessionCookieOf } from './session-cookie';
import { sameSecret, type DashboardSession, type SessionStore } from './session-store';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The live session a request's cookie names, or the 401 that refuses it. */
export function sessionOf(req: Request, store: SessionStore): DashboardSession {
  const sessionId = sessionCookieOf(req);
  const session = sessionId === undefined ? undefined : store.find(sessionId);
  if (!session) throw new AppError('UNAUTHORIZED', 'The dashboard session is over or unknown; sign in again');
  return session;
}

/** A state-changing request made with the session cookie must echo the session's CSRF token (403 otherwise). */
export function checkCsrf(req: Request, session: DashboardSession): void {
  if (SAFE_METHODS.has(req.method)) return;
  const sent = req.headers['x-csrf-token'];
  if (typeof sent !== 'string' || !sameSecret(sent, session.csrfToken)) {
    throw new AppError(
      'FORBIDDEN',
      'A state-changing request made with the dashboard session needs its X-CSRF-Token header',
    );
  }
}

/**
 * The dashboard's session cookie as a credential for the REST API, before the API's own
 * authentication. A request with an Authorization header is left to it (the header wins, the
 * cookie is ignored). A request with the cookie and no header must name a live session (else 401)
 * and, unless it is a read, carry the session's CSRF token (else 403); it then goes through the
 * same Basic authentication, throttle, permission table and token revocation as the API client's
 * own credential, so a session never grants more than its token.
 */
export function sessionCredential(store: SessionStore) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.headers.authorization !== undefined || !hasSessionCookie(req)) return next();
    res.locals.dashboardSession = true;
    try {
      const session = sessionOf(req, store);
      checkCsrf(req, session);
      req.headers.authorization = session.authorization;
      next();
    } catch (err) {
      next(err);
    }
  };
}
