import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

export interface AuthThrottleLimits {
  /**
   * Failed checks one API token id may have from one client address per window before that pair is refused for the rest
   * of it.
   */
  perToken: number;
  /** Failed checks one client address may have per window (any credentials). */
  perAddress: number;
  windowSeconds: number;
}

export const DEFAULT_AUTH_THROTTLE: AuthThrottleLimits = { perToken: 20, perAddress: 60, windowSeconds: 60 };

/** What a throttled request is told: how long until it may try again. */
export interface Throttled {
  retryAfterSeconds: number;
}

/** One reserved attempt: settled once its credential was checked. */
export interface Attempt {
  /** The credential was wrong: the reservation stays counted as a failure. */
  failed(): void;
  /** The credential was right, or could not be checked: the reservation is given back. */
  release(): void;
}

/**
 * The subject of credentials that name no token id (agent tokens, device codes): all of one address's share one count.
 */
export const OPAQUE = 'opaque-credentials';

/** How long credentials proven correct are remembered as such, and how many. */
const KNOWN_GOOD_MS = 24 * 3600_000;
const KNOWN_GOOD_MAX = 50_000;

/**
 * Failed authentication, counted per (token id, client address) pair and per client address
 * (rate-limiter-flexible's in-memory limiter, one per gateway replica).
 * - Guesses are throttled where they come from: failures from one address never slow the same
 *   token used from another address; an address over its limit is refused for token ids that
 *   already failed from it, and for opaque credentials (agent tokens, device codes).
 * - A credential this replica has verified as correct (remembered by digest for a day) is never
 *   refused for failures: only its holder can present that digest, so it cannot be used to guess.
 * - Each attempt is reserved before the credential is checked (consume), and given back when it
 *   was right, so N guesses in flight at once cannot exceed the limit.
 */
export function createAuthThrottle(limits: AuthThrottleLimits = DEFAULT_AUTH_THROTTLE) {
  const byPair = new RateLimiterMemory({ points: limits.perToken, duration: limits.windowSeconds });
  const byAddress = new RateLimiterMemory({ points: limits.perAddress, duration: limits.windowSeconds });
  const knownGood = new Map<string, number>();
  const throttled = (rejection: unknown): Throttled => {
    const ms = rejection instanceof RateLimiterRes ? rejection.msBeforeNext : limits.windowSeconds * 1000;
    return { retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)) };
  };
  const giveBack = (limiter: RateLimiterMemory, key: string) => void limiter.reward(key, 1).catch(() => undefined);

  return {
    /** Whether this credential digest was verified as correct recently (then it is not throttled). */
    isKnownGood(digest: string): boolean {
      const until = knownGood.get(digest);
      return until !== undefined && until > Date.now();
    },
    rememberGood(digest: string): void {
      knownGood.delete(digest);
      if (knownGood.size >= KNOWN_GOOD_MAX) knownGood.delete(knownGood.keys().next().value!);
      knownGood.set(digest, Date.now() + KNOWN_GOOD_MS);
    },
    forgetGood(digest: string): void {
      knownGood.delete(digest);
    },
    /**
     * Reserves one attempt for `subject` (a token id, or OPAQUE) from `address`:
     * the Attempt to settle, or Throttled when either limit is already reached.
     */
    async reserve(subject: string, address: string): Promise<Attempt | Throttled> {
      const pairKey = `${subject}@${address}`;
      let pair: RateLimiterRes;
      try {
        pair = await byPair.consume(pairKey, 1);
      } catch (rejection) {
        giveBack(byPair, pairKey);
        return throttled(rejection);
      }
      try {
        await byAddress.consume(address, 1);
      } catch (rejection) {
        // Over the address's limit, a token id not yet tried from it in the window still gets its one
        // check: the owner's first correct request is not refused for other tokens' failures.
        const firstTryOfToken = subject !== OPAQUE && pair.consumedPoints === 1;
        if (!firstTryOfToken) {
          giveBack(byAddress, address);
          giveBack(byPair, pairKey);
          return throttled(rejection);
        }
      }
      let settled = false;
      return {
        failed: () => {
          settled = true;
        },
        release: () => {
          if (settled) return;
          settled = true;
          giveBack(byAddress, address);
          giveBack(byPair, pairKey);
        },
      };
    },
  };
}

export type AuthThrottle = ReturnType<typeof createAuthThrottle>;

export const isThrottled = (outcome: Attempt | Throttled): outcome is Throttled => 'retryAfterSeconds' in outcome;
