import type { Request, Response } from 'express';

export const SESSION_COOKIE = 'grid_dashboard_session';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** Secure everywhere but on the loopback host, where a developer runs plain HTTP. */
export function cookieIsSecure(req: Request): boolean {
  return req.secure || !LOOPBACK.has(req.hostname);
}

/** The session cookie's value, if the request carries exactly one well-formed one. */
export function sessionCookieOf(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  const values = header.split(';').map((part) => part.trim())
    .filter((part) => part.startsWith(`${SESSION_COOKIE}=`)).map((part) => part.slice(SESSION_COOKIE.length + 1));
  return values.length === 1 && /^[A-Za-z0-9_-]{43}$/.test(values[0]) ? values[0] : undefined;
}

export function hasSessionCookie(req: Request): boolean {
  return (req.headers.cookie ?? '').includes(`${SESSION_COOKIE}=`);
}

export function setSessionCookie(req: Request, res: Response, sessionId: string, maxAgeMs: number): void {
  res.cookie(SESSION_COOKIE, sessionId, {
    httpOnly: true,
    sameSite: 'strict',
    secure: cookieIsSecure(req),
    path: '/',
    maxAge: maxAgeMs,
  });
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'strict', secure: cookieIsSecure(req), path: '/' });
}
