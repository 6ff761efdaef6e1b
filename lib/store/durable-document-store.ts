import type { Doc, DocumentCollection, DocumentStore } from './document-store';
import { EmbeddedCollection } from './embedded-collection';
import { SqliteJournal, type SyncPolicy } from './sqlite-journal';

export interface DurableStoreOptions {
  /** The SQLite file of this store (one per service). */
  path: string;
  sync?: SyncPolicy;
}

/**
 * The embedded store made durable: the in-memory engine answers every query, and each change is
 * written to a SQLite journal before it is applied and acknowledged. At open, every collection
 * is read back from the journal the first time it is asked for.
 */
export function createDurableDocumentStore(options: DurableStoreOptions): DocumentStore {
  const journal = new SqliteJournal(options.path, options.sync ?? 'normal');
  const collections = new Map<string, EmbeddedCollection>();
  return {
    collection<T extends Doc = Doc>(name: string): DocumentCollection<T> {
      let collection = collections.get(name);
      if (!collection) {
        collection = new EmbeddedCollection(name, (changes) => journal.write(name, changes), journal.load(name));
        collections.set(name, collection);
      }
      return collection as unknown as DocumentCollection<T>;
    },
    /** False while the disk refuses writes (the service reports NOT_SERVING, so /readyz is 503). */
    async ping() {
      return journal.canWrite();
    },
    async close() {
      journal.close();
    },
  };
}
