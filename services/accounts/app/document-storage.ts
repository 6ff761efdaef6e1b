/**
 * Where document files live: the service stores a file under a key of its choosing before the
 * record that names it, and removes it after the record is gone. Implementations never log
 * contents or names.
 */
export interface DocumentStorage {
  /** Stores the whole file or nothing (a reader never sees part of one). */
  put(key: string, content: Uint8Array): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  /** Removing a missing file is not an error. */
  delete(key: string): Promise<void>;
}
