import type { StoredDoc } from './sqlite-statements';

/**
 * The documents of one store file most recently read or written, decoded, at most `capacity` of
 * them (least recently used first out), so memory does not grow with history. Entries are never
 * mutated: an update stores a new object.
 */
export class DocumentCache {
  private readonly entries = new Map<string, StoredDoc>();

  constructor(private readonly capacity: number) {}

  get(collection: string, seq: number): StoredDoc | undefined {
    const id = `${collection}\u0000${seq}`;
    const found = this.entries.get(id);
    if (found) {
      this.entries.delete(id);
      this.entries.set(id, found);
    }
    return found;
  }

  set(collection: string, stored: StoredDoc): void {
    if (this.capacity <= 0) return;
    const id = `${collection}\u0000${stored.seq}`;
    this.entries.delete(id);
    this.entries.set(id, stored);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }

  delete(collection: string, seq: number): void {
    this.entries.delete(`${collection}\u0000${seq}`);
  }

  clear(): void {
    this.entries.clear();
  }
}
