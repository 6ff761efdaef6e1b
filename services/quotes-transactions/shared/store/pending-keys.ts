import { createKeyedLock, type KeyedLock } from '../../../../lib/keyed-lock';
import type { DocumentStore } from '../../../../lib/store/document-store';

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
  /**
   * For the counter's next write: the keys it may remove (never `except`'s) and their `$unset`, if
   * any. Each key goes to one write at a time, so concurrent writes do not all remove the same keys.
   */
  removable(counter: string, except: string): { ids: string[]; unset?: Record<string, ''> };
  /**
   * The counter's write that carried `removable(…).unset` ended: when it `matched`, those keys are
   * gone; otherwise they go to a later write. (A write that threw leaves its keys in the counter,
   * harmless, as a stopped process does.)
   */
  removed(counter: string, ids: string[], matched: boolean): void;
  /** `id`'s reservation document is in: its key may go with the counter's next write. */
  recorded(counter: string, id: string): void;
}

/** At most this many keys removed by one write. */
const REMOVED_PER_WRITE = 256;

export function createPendingKeys(): PendingKeys {
  /** Per counter, the recorded ids no write is removing yet, each with its field. */
  const recorded = new Map<string, Map<string, string>>();
  const field = (id: string) => `pending.${Buffer.from(id).toString('base64url')}`;
  const recordedOf = (counter: string) => recorded.get(counter) ?? recorded.set(counter, new Map()).get(counter)!;
  return {
    field,
    removable(counter, except) {
      const waiting = recorded.get(counter);
      if (!waiting?.size) return { ids: [] };
      const ids: string[] = [];
      const unset: Record<string, ''> = {};
      for (const [id, path] of waiting) {
        if (id === except) continue;
        ids.push(id);
        unset[path] = '';
        if (ids.length === REMOVED_PER_WRITE) break;
      }
      for (const id of ids) waiting.delete(id);
      return ids.length ? { ids, unset } : { ids };
    },
    removed(counter, ids, matched) {
      if (matched || ids.length === 0) return;
      const waiting = recordedOf(counter);
      for (const id of ids) waiting.set(id, field(id));
    },
    recorded(counter, id) {
      recordedOf(counter).set(id, field(id));
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
export const reservationLock = (store: DocumentStore): KeyedLock =>
  locks.get(store) ?? locks.set(store, createKeyedLock()).get(store)!;
