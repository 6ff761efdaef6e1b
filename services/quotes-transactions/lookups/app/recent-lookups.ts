import type { Lookup } from '../domain/lookup';

/**
 * The signed lookups this process made, in full (rates, payer data, sender), for GetLookup and for
 * naming the receiver when a quote cites a lookup for another one. Bounded: the oldest is forgotten
 * first, and an expired one is never answered. A quote does not need it: the id proves itself.
 */
export interface RecentLookups {
  remember(lookup: Lookup): void;
  /** The lookup if this process made it for `platformId` and still holds it. */
  find(platformId: string, lookupId: string): Lookup | undefined;
}

export function createRecentLookups(options: { capacity?: number; now: () => Date }): RecentLookups {
  const capacity = options.capacity ?? 10_000;
  const held = new Map<string, Lookup>();
  return {
    remember(lookup) {
      held.set(lookup.id, lookup);
      if (held.size > capacity) held.delete(held.keys().next().value!);
    },
    find(platformId, lookupId) {
      const lookup = held.get(lookupId);
      if (!lookup || lookup.platformId !== platformId) return undefined;
      if (options.now().getTime() >= Date.parse(lookup.expiresAt) + 3_600_000) {
        held.delete(lookupId);
        return undefined;
      }
      return lookup;
    },
  };
}
