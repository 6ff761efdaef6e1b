import type { WebhookEndpointDirectory } from './webhook-endpoint-directory';

export interface WebhookEndpointCache extends WebhookEndpointDirectory {
  /** The platform's configuration changed: the next lookup asks the source again. */
  forget(platformId: string): void;
}

/**
 * Remembers each platform's endpoint, so a burst of events costs one lookup, not one per event.
 * Only a set endpoint is remembered (a platform that just set its first one is seen at once);
 * a change arrives as the configuration-changed event (`forget`), and `ttlMs` bounds how long an
 * entry lives should that event be missed.
 */
export function createWebhookEndpointCache(
  source: WebhookEndpointDirectory,
  options: { ttlMs: number; clock?: () => number },
): WebhookEndpointCache {
  const clock = options.clock ?? Date.now;
  const entries = new Map<string, { url: string; until: number }>();
  const pending = new Map<string, Promise<string | undefined>>();
  const generation = new Map<string, number>();

  const load = (platformId: string) => {
    const asked = generation.get(platformId) ?? 0;
    const lookup = source.endpointOf(platformId).then((url) => {
      // A change that arrived while the lookup was in flight wins over what it read.
      if (url && (generation.get(platformId) ?? 0) === asked) {
        entries.set(platformId, { url, until: clock() + options.ttlMs });
      }
      return url;
    }).finally(() => {
      if (pending.get(platformId) === lookup) pending.delete(platformId);
    });
    pending.set(platformId, lookup);
    return lookup;
  };

  const forget = (platformId: string) => {
    entries.delete(platformId);
    pending.delete(platformId);
    generation.set(platformId, (generation.get(platformId) ?? 0) + 1);
  };

  return {
    async endpointOf(platformId, options) {
      if (options?.fresh) {
        forget(platformId);
        return load(platformId);
      }
      const cached = entries.get(platformId);
      if (cached && cached.until > clock()) return cached.url;
      return pending.get(platformId) ?? load(platformId);
    },
    forget,
    // Read at each event of an extension type only: not remembered.
    ...(source.extensionTypesOf ? { extensionTypesOf: source.extensionTypesOf.bind(source) } : {}),
  };
}
