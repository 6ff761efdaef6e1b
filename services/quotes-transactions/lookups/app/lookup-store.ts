import type { Lookup } from '../domain/lookup';

/** Storage port of the lookup use cases. */
export interface LookupStore {
  save(lookup: Lookup): Promise<void>;
  /** null when the lookup does not exist for this platform. */
  find(platformId: string, lookupId: string): Promise<Lookup | null>;
  ensureIndexes(): Promise<void>;
  /** Forgets lookups that expired before `before`; answers how many. */
  forgetExpired(before: Date): Promise<number>;
}
