import { createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../../lib/errors';
import { createAuthThrottle, type AuthThrottle } from './auth-throttle';
import { setCaller, type Caller } from './call-context';
import { createCredentialCache, type CredentialCache } from './credential-cache';

export type Authenticate = (tokenId: string, clientSecret: string) => Promise<Caller>;

function parseBasic(header: string | undefined): { tokenId: string; secret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  return { tokenId: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/**
 * HTTP Basic with API tokens. Successful checks are remembered (credential-cache.ts), so the auth
 * service is asked once per token per window; a deleted token is forgotten at once.
 * Failed checks are throttled per token id and per client address (429 with Retry-After); a
 * remembered good credential is let through even then, so guessing at a token id does not lock
 * its owner out.
 */
export function basicAuth(authenticate: Authenticate, options: { cacheMs?: number; maxEntries?: number; throttle?: AuthThrottle; cache?: CredentialCache } = {}) {
  const throttle = options.throttle ?? createAuthThrottle();
  const cache = options.cache ?? createCredentialCache(options);

  return async (req: Request, res: Response, next: NextFunction) => {
    const header = req.headers.authorization;
    const credentials = parseBasic(header);
    if (!credentials) return next(new AppError('UNAUTHORIZED', 'HTTP Basic credentials (API token id and client secret) are required'));
    const key = createHash('sha256').update(header!).digest('base64');
    const hit = cache.get(key);
    if (hit) {
      setCaller(res, hit);
      return next();
    }
    const address = req.socket.remoteAddress ?? 'unknown';
    try {
      const throttled = await throttle.check(credentials.tokenId, address);
      if (throttled) return next(new AppError('RATE_LIMITED', 'Too many failed authentication attempts; try again later', { ...throttled }));
      const caller = await authenticate(credentials.tokenId, credentials.secret).catch(async (err: unknown) => {
        if (err instanceof AppError && err.code === 'UNAUTHORIZED') await throttle.failed(credentials.tokenId, address);
        throw err;
      });
      cache.set(key, caller);
      setCaller(res, caller);
      next();
    } catch (err) {
      next(err);
    }
  };
}
