import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../../lib/errors';
import { createAuthThrottle, type AuthThrottle } from './auth-throttle';
import { setCaller, type Caller } from './call-context';
import { clientAddress } from './client-address';
import { createCredentialCache, type CredentialCache } from './credential-cache';
import { credentialDigest, credentialVerifier } from './verify-credential';

export type Authenticate = (tokenId: string, clientSecret: string) => Promise<Caller>;

function parseBasic(header: string | undefined): { tokenId: string; secret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  return { tokenId: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

const isWrongSecret = (err: unknown) => err instanceof AppError && err.code === 'UNAUTHORIZED';

/**
 * HTTP Basic with API tokens. Successful checks are remembered (credential-cache.ts), so the auth
 * service is asked once per token per window; a deleted token is forgotten at once.
 * Failed checks are throttled per (token id, client address) and per client address (429 with
 * Retry-After; verify-credential.ts): guesses from elsewhere never refuse the owner's correct secret.
 */
export function basicAuth(
  authenticate: Authenticate,
  options: { cacheMs?: number; maxEntries?: number; throttle?: AuthThrottle; cache?: CredentialCache } = {},
) {
  const throttle = options.throttle ?? createAuthThrottle();
  const cache = options.cache ?? createCredentialCache(options);
  const verify = credentialVerifier<Caller>(throttle, isWrongSecret);

  return async (req: Request, res: Response, next: NextFunction) => {
    const header = req.headers.authorization;
    // A header accepted before is in the cache under its digest: no parsing needed.
    const key = header === undefined ? undefined : credentialDigest(header);
    const hit = key === undefined ? undefined : cache.get(key);
    if (hit) {
      setCaller(res, hit);
      return next();
    }
    const credentials = parseBasic(header);
    if (!credentials || key === undefined) {
      return next(new AppError('UNAUTHORIZED', 'HTTP Basic credentials (API token id and client secret) are required'));
    }
    try {
      const caller = await verify({
        credential: header!,
        subject: credentials.tokenId,
        address: clientAddress(req),
        verify: () => authenticate(credentials.tokenId, credentials.secret),
      });
      cache.set(key, caller);
      setCaller(res, caller);
      next();
    } catch (err) {
      next(err);
    }
  };
}
