import { createKeyedLock, type KeyedLock } from '../../../lib/keyed-lock';
import type { DocumentStore } from '../../../lib/store/document-store';

/**
 * The in-flight keys of a counter document (`pending.<id>`), shared by the platforms' daily
 * volumes and the agents' usage. A reservation's key rides in the same write as its amount, so a
 * replay after a crash finds it and never counts twice. Once the reservation's own document is
 * in, the key is no longer needed: the counter's next reservation removes it in its own write, so
 * a reservation costs two writes, not three. Keys a process recorded but had not yet removed when
 * it stopped stay in the counter, harmless.
 */
export interface PendingKeys {
  /** The field that holds `id`'s key while its reservation is in flight. */
  field(id: string): string;
  /** For the counter's next write: the keys it may remove (never `except`'s) and their `$unset`, if any. */
  removable(counter: string, except: string): { ids: string[]; unset?: Record<string, ''> };
  /** The counter's write that carried `removable(…).unset` succeeded: those keys are gone. */
  removed(counter: string, ids: string[]): void;
  /** `id`'s reservation document is in: its key may go with the counter's next write. */
  recorded(counter: string, id: string): void;
}

/** At most this many keys removed by one write. */
const REMOVED_PER_WRITE = 256;

export function createPendingKeys(): PendingKeys {
  const recorded = new Map<string, Set<string>>();
  const field = (id: string) => `pending.${Buffer.from(id).toString('base64url')}`;
  return {
    field,
    removable(counter, except) {
      const ids = [...(recorded.get(counter) ?? [])].filter((id) => id !== except).slice(0, REMOVED_PER_WRITE);
      return ids.length ? { ids, unset: Object.fromEntries(ids.map((id) => [field(id), ''] as const)) } : { ids };
    },
    removed(counter, ids) {
      for (const id of ids) recorded.get(counter)?.delete(id);
    },
    recorded(counter, id) {
      let ids = recorded.get(counter);
      if (!ids) recorded.set(counter, (ids = new Set()));
      ids.add(id);
    },
  };
}

/**
 * Two attempts at one reservation (or release) must not overlap: one that started before the other
 * recorded its document could find the key already removed and count again. They run one after
 * another in this process (the embedded store serves one process), under one lock per store shared
 * by every counter store over it; across replicas on MongoDB the key alone does not close that window.
 */
const locks = new WeakMap<DocumentStore, KeyedLock>();
export const reservationLock = (store: DocumentStore): KeyedLock => locks.get(store) ?? locks.set(store, createKeyedLock()).get(store)!;
