import type { EventBus, Subscription } from '../../lib/bus/event-bus';
import {
  API_TOKEN_DELETED,
  API_TOKEN_EVENTS_TOPIC,
  type ApiTokenDeletedData,
} from '../../lib/contract/api-token-events';
import type { Logger } from '../../lib/log';
import type { Caller } from './call-context';

/**
 * Credentials the auth service accepted, remembered for `cacheMs` under a SHA-256 of the
 * Authorization header (never the secret itself). `forget` drops every entry of one token: a
 * deleted token is refused on its next request, whatever is left of its window.
 */
export function createCredentialCache(options: { cacheMs?: number; maxEntries?: number } = {}) {
  const cacheMs = options.cacheMs ?? 30000;
  const maxEntries = options.maxEntries ?? 10000;
  const entries = new Map<string, { caller: Caller; until: number }>();
  return {
    get(key: string): Caller | undefined {
      const hit = entries.get(key);
      return hit && hit.until > Date.now() ? hit.caller : undefined;
    },
    set(key: string, caller: Caller): void {
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(key, { caller, until: Date.now() + cacheMs });
    },
    forget(clientId: string): void {
      for (const [key, entry] of entries) if (entry.caller.tokenId === clientId) entries.delete(key);
    },
  };
}

export type CredentialCache = ReturnType<typeof createCredentialCache>;

/** The base of each gateway replica's consumer group for token deletions (replicaGroup adds the replica). */
export const CREDENTIALS_GROUP = 'gateway-credentials';

/**
 * Every gateway replica forgets a token deleted through any of them: each subscribes to the
 * token events in a consumer group of its own (`group`, from replicaGroup), so each one receives
 * every deletion; the group is the replica's, kept across its restarts and deleted on a clean stop.
 */
export function forgetDeletedTokens(
  bus: EventBus,
  cache: CredentialCache,
  group: string,
  logger: Logger,
): Promise<Subscription> {
  return bus.subscribe({
    topic: API_TOKEN_EVENTS_TOPIC,
    group,
    transient: true,
    // A new replica's group reads the retained deletions too: one published while it was joining is not missed.
    fromBeginning: true,
    async handler(event) {
      if (event.type !== API_TOKEN_DELETED) return;
      const { clientId } = event.data as unknown as ApiTokenDeletedData;
      cache.forget(clientId);
      logger.debug('forgot a deleted API token', {
        component: 'gateway',
        tokenId: (event.data as unknown as ApiTokenDeletedData).tokenId,
      });
    },
  });
}
