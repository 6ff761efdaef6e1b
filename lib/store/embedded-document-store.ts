import type { DocumentStore } from './document-store';
import { createSqliteDocumentStore } from './sqlite-document-store';
import { DEFAULT_CACHE_DOCUMENTS } from './store-defaults';

/** SQLite's name for a database that lives in this connection's memory: no file, no WAL, no lock. */
const IN_MEMORY_DATABASE = ':memory:';

/**
 * The embedded engine (SQLite, sqlite-document-store.ts) on an in-memory database: the same
 * queries, indexes, group commit and cache as the durable store, with nothing written to disk and
 * nothing kept after close. DATA_DIR=:memory: and the tests use it, so a durable run and an
 * in-memory one differ only by durability (the file, its WAL and DATA_SYNC).
 */
export function createEmbeddedDocumentStore(options: { cacheDocuments?: number } = {}): DocumentStore {
  return createSqliteDocumentStore({
    path: IN_MEMORY_DATABASE,
    cacheDocuments: options.cacheDocuments ?? DEFAULT_CACHE_DOCUMENTS,
  });
}
