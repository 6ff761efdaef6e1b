import type { NextFunction, Request, Response } from 'express';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../../lib/errors';
import { callerOf } from './call-context';

export interface RequestRateLimit {
  /** Requests one credential may make per window. */
  requests: number;
  windowSeconds: number;
  /** Requests all credentials of one platform together may make per window (unset: no platform limit). */
  platformRequests?: number;
}

/**
 * Each authenticated credential (an API token, an agent) may make `requests` per window, counted by
 * this replica; beyond that 429 RATE_LIMITED with Retry-After. Every answer to an authenticated
 * request says where the credential stands, in the IETF RateLimit headers
 * (draft-ietf-httpapi-ratelimit-headers, structured fields):
 *   RateLimit-Policy: "default";q=<requests>;w=<window seconds>
 *   RateLimit: "default";r=<remaining>;t=<seconds until the window resets>
 */
export function requestRateLimit(limit: RequestRateLimit) {
  const limiter = new RateLimiterMemory({ points: limit.requests, duration: limit.windowSeconds });
  const platformLimiter = limit.platformRequests
    ? new RateLimiterMemory({ points: limit.platformRequests, duration: limit.windowSeconds })
    : undefined;
  const policy = `"default";q=${limit.requests};w=${limit.windowSeconds}`;
  const describe = (res: Response, state: RateLimiterRes) => {
    const resetSeconds = Math.max(0, Math.ceil(state.msBeforeNext / 1000));
    res.set('RateLimit-Policy', policy);
    res.set('RateLimit', `"default";r=${Math.max(0, state.remainingPoints)};t=${resetSeconds}`);
    return resetSeconds;
  };

  return async (_req: Request, res: Response, next: NextFunction) => {
    const caller = callerOf(res);
    if (!caller) return next();
    try {
      describe(res, await limiter.consume(`${caller.platformId}/${caller.tokenId}`, 1));
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) return next(rejection);
      const retryAfterSeconds = Math.max(1, describe(res, rejection));
      return next(
        new AppError(
          'RATE_LIMITED',
          `This credential made more than ${limit.requests} requests in `
            + `${limit.windowSeconds} s; try again in ${retryAfterSeconds} s`,
          { retryAfterSeconds },
        ),
      );
    }
    if (!platformLimiter) return next();
    // The platform's own rate: more tokens do not multiply what one platform may ask.
    try {
      await platformLimiter.consume(caller.platformId, 1);
      next();
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) return next(rejection);
      const retryAfterSeconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      next(
        new AppError(
          'RATE_LIMITED',
          `This platform's credentials made more than ${limit.platformRequests} `
            + `requests in ${limit.windowSeconds} s; try again in ${retryAfterSeconds} s`,
          {
            retryAfterSeconds,
            limit: 'platform',
          },
        ),
      );
    }
  };
}
