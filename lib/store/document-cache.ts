import type { StoredDoc } from './sqlite-statements';

/**
 * The documents of one store file most recently read or written, decoded, at most `capacity` of
 * them (least recently used first out), so memory does not grow with history. Entries are never
 * mutated: an update stores a new object. They are found by row (`seq`) and by key (`_id`), so a
 * read by `_id` of a cached document does not ask SQLite for the row.
 */
export class DocumentCache {
  private readonly entries = new Map<string, StoredDoc>();
  private readonly byKey = new Map<string, StoredDoc>();

  /** `onEvicted`: told of each document let go to make room (not of one deleted, nor of `clear`). */
  constructor(private readonly capacity: number, private readonly onEvicted?: (seq: number) => void) {}

  get(collection: string, seq: number): StoredDoc | undefined {
    const id = `${collection}\u0000${seq}`;
    const found = this.entries.get(id);
    if (found) {
      this.entries.delete(id);
      this.entries.set(id, found);
    }
    return found;
  }

  getByKey(collection: string, key: string): StoredDoc | undefined {
    const found = this.byKey.get(`${collection}\u0000${key}`);
    return found && this.get(collection, found.seq);
  }

  set(collection: string, stored: StoredDoc): void {
    if (this.capacity <= 0) return;
    const id = `${collection}\u0000${stored.seq}`;
    this.entries.delete(id);
    this.entries.set(id, stored);
    this.byKey.set(`${collection}\u0000${stored.key}`, stored);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as string;
      const seq = this.entries.get(oldest)!.seq;
      this.evict(oldest);
      this.onEvicted?.(seq);
    }
  }

  delete(collection: string, seq: number): void {
    this.evict(`${collection}\u0000${seq}`);
  }

  clear(): void {
    this.entries.clear();
    this.byKey.clear();
  }

  private evict(id: string): void {
    const stored = this.entries.get(id);
    if (!stored) return;
    this.entries.delete(id);
    const key = `${id.slice(0, id.indexOf('\u0000'))}\u0000${stored.key}`;
    if (this.byKey.get(key) === stored) this.byKey.delete(key);
  }
}
