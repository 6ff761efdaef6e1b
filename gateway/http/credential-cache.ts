import type { EventBus, Subscription } from '../../lib/bus/event-bus';
import { API_TOKEN_DELETED, API_TOKEN_EVENTS_TOPIC, type ApiTokenDeletedData } from '../../lib/contract/api-token-events';
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

/**
 * Every gateway replica forgets a token deleted through any of them: each subscribes to the
 * token events in a consumer group of its own, so each one receives every deletion.
 */
export function forgetDeletedTokens(bus: EventBus, cache: CredentialCache, replicaId: string, logger: Logger): Promise<Subscription> {
  return bus.subscribe({
    topic: API_TOKEN_EVENTS_TOPIC,
    group: `gateway-credentials.${replicaId}`,
    async handler(event) {
      if (event.type !== API_TOKEN_DELETED) return;
      const { clientId } = event.data as unknown as ApiTokenDeletedData;
      cache.forget(clientId);
      logger.debug('forgot a deleted API token', { component: 'gateway', tokenId: (event.data as unknown as ApiTokenDeletedData).tokenId });
    },
  });
}
