import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

export interface AuthThrottleLimits {
  /** Failed checks one API token id may have per window before it is refused for the rest of it. */
  perToken: number;
  /** Failed checks one client address may have per window. */
  perAddress: number;
  windowSeconds: number;
}

export const DEFAULT_AUTH_THROTTLE: AuthThrottleLimits = { perToken: 20, perAddress: 60, windowSeconds: 60 };

/** What a throttled request is told: how long until it may try again. */
export interface Throttled {
  retryAfterSeconds: number;
}

/**
 * Failed authentication, counted per token id and per client address (rate-limiter-flexible's
 * in-memory limiter, one per gateway replica). A key over its limit is refused until its window
 * ends; keys of other tokens and addresses are not slowed.
 */
export function createAuthThrottle(limits: AuthThrottleLimits = DEFAULT_AUTH_THROTTLE) {
  const byToken = new RateLimiterMemory({ points: limits.perToken, duration: limits.windowSeconds });
  const byAddress = new RateLimiterMemory({ points: limits.perAddress, duration: limits.windowSeconds });
  const exhausted = (res: RateLimiterRes | null, points: number) => (res && res.consumedPoints >= points ? res.msBeforeNext : 0);

  return {
    async check(tokenId: string, address: string): Promise<Throttled | undefined> {
      const [token, client] = await Promise.all([byToken.get(tokenId), byAddress.get(address)]);
      const waitMs = Math.max(exhausted(token, limits.perToken), exhausted(client, limits.perAddress));
      return waitMs > 0 ? { retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) } : undefined;
    },
    async failed(tokenId: string, address: string): Promise<void> {
      // A rejection only says the key is now over its limit, which check() reports next time.
      await Promise.all([byToken.penalty(tokenId, 1), byAddress.penalty(address, 1)]);
    },
  };
}

export type AuthThrottle = ReturnType<typeof createAuthThrottle>;
