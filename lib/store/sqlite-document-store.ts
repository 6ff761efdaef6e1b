import type Database from 'better-sqlite3';
import { statfsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { AppError } from '../errors';
import { ColdBodies } from './cold-bodies';
import { DocumentCache } from './document-cache';
import { DocumentsCompaction, type CompactionOptions } from './documents-compaction';
import type { Doc, DocumentCollection, DocumentStore } from './document-store';
import { GroupCommit } from './group-commit';
import { SortCounts } from './sort-counts';
import { SqliteCollection, type SqliteContext } from './sqlite-collection';
import { FREE_SPACE_TO_RECOVER, STORAGE_FULL_RETRY_AFTER_SECONDS } from './store-defaults';
import { checkpointer } from './sqlite-checkpointer';
import {
  DataDirectoryInUseError,
  LATEST_STORE_VERSION,
  WAL_LIMIT_PAGES,
  openStoreFile,
  walBytes,
  type SyncPolicy,
} from './sqlite-schema';
import { prepareStatements } from './sqlite-statements';

export interface SqliteStoreOptions {
  /** The SQLite file of this store (one per service). */
  path: string;
  sync?: SyncPolicy;
  /** Decoded documents kept in memory, across the store's collections. */
  cacheDocuments?: number;
  /** The WAL's bound in frames (default WAL_LIMIT_PAGES, ≈49 MB; tests use less). */
  walLimitPages?: number;
  /**
   * How the documents table is packed behind the writes (default: as many rows behind the newest as the cache holds).
   */
  compaction?: Partial<CompactionOptions>;
}

import { DEFAULT_CACHE_DOCUMENTS } from './store-defaults';

export { DEFAULT_CACHE_DOCUMENTS };

const isStorageFull = (err: unknown) => (err as { code?: string }).code === 'SQLITE_FULL';

/** Bytes free for this user on the file system holding `file`; Infinity when it cannot be told. */
function freeBytes(file: string): number {
  try {
    const fs = statfsSync(dirname(file));
    return Number(fs.bavail) * Number(fs.bsize);
  } catch {
    return Infinity;
  }
}

/**
 * The embedded store answered by SQLite: documents and index entries in one file (see
 * sqlite-collection.ts), so memory holds a bounded cache and opening costs the same at any size
 * (nothing is read back at start). Writes of concurrent requests share one transaction (group
 * commit, group-commit.ts) and are acknowledged after it commits. A file in the journal's format
 * (version 1) upgrades itself at open; a newer one is refused (sqlite-schema.ts).
 */
export interface SqliteDocumentStore extends DocumentStore {
  /** The store file's connection (tests inject faults through it). */
  readonly database: Database.Database;
}

/** Store files open in this process (a file has one store: its cache is the truth of what it holds). */
const openHere = new Set<string>();

export function createSqliteDocumentStore(options: SqliteStoreOptions): SqliteDocumentStore {
  const inMemory = options.path === ':memory:';
  const file = inMemory ? undefined : resolve(options.path);
  if (file !== undefined && openHere.has(file)) throw new DataDirectoryInUseError(options.path);
  const db = openStoreFile(options.path, options.sync ?? 'normal', LATEST_STORE_VERSION);
  if (file !== undefined) openHere.add(file);
  const walLimitPages = options.walLimitPages ?? WAL_LIMIT_PAGES;
  // A WAL that one large transaction grew past the bound is cut back to it when it next starts over.
  db.pragma(`journal_size_limit = ${walBytes(walLimitPages, db.pragma('page_size', { simple: true }) as number)}`);
  // A `:memory:` database has no WAL to checkpoint.
  const checkpoints = file === undefined ? undefined : checkpointer.attach(file, db, walLimitPages);
  const cacheDocuments = options.cacheDocuments ?? DEFAULT_CACHE_DOCUMENTS;
  const statements = prepareStatements(db);
  const coldBodies = new ColdBodies(statements, cacheDocuments);
  const cache = new DocumentCache(cacheDocuments, (seq) => coldBodies.evicted(seq));
  let failingSince: number | undefined;
  /** A write was refused since the last commit: that commit does not prove the disk takes writes again. */
  let refusedSinceCommit = false;
  const refusal = (err: unknown) => {
    if (!isStorageFull(err)) return err;
    failingSince ??= Date.now();
    refusedSinceCommit = true;
    return new AppError(
      'STORAGE_FULL',
      'The data store cannot write: its disk is full. Nothing was changed; retry later',
      { retryAfterSeconds: STORAGE_FULL_RETRY_AFTER_SECONDS },
      { cause: err },
    );
  };
  const committed = () => {
    // Requests' writes committed with none refused: the disk takes writes again (ready, see ping).
    if (!refusedSinceCommit) failingSince = undefined;
    refusedSinceCommit = false;
    checkpoints?.committed();
  };
  const sortCounts = new SortCounts(statements);
  const writes = new GroupCommit(db, {
    onLost: () => {
      cache.clear();
      sortCounts.lost();
      coldBodies.lost();
    },
    translate: refusal,
    beforeCommit: () => {
      sortCounts.write();
      coldBodies.compress();
    },
    onCommitted: committed,
  });
  const context: SqliteContext = { db, statements, cache, writes, sortCounts, coldBodies };
  // A `:memory:` database has no file to keep small. Rows still cached may be rewritten larger or smaller: left alone.
  const compaction = inMemory
    ? undefined
    : new DocumentsCompaction(db, writes, { lagRows: Math.max(cacheDocuments, 1_024), ...options.compaction });
  compaction?.start();
  const collections = new Map<string, SqliteCollection>();
  let closing: Promise<void> | undefined;

  // The write check takes a fresh page (a row of one page's size, removed in the same transaction),
  // as a document write would: a write into space the file already has would not tell.
  db.exec('CREATE TABLE IF NOT EXISTS write_check (id INTEGER PRIMARY KEY, pad BLOB NOT NULL)');
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const take = db.prepare('INSERT INTO write_check (id, pad) VALUES (1, zeroblob(?))');
  const release = db.prepare('DELETE FROM write_check');
  const probe = db.transaction(() => {
    release.run();
    take.run(pageSize);
    release.run();
  });

  return {
    database: db,
    collection<T extends Doc = Doc>(name: string): DocumentCollection<T> {
      let collection = collections.get(name);
      if (!collection) {
        collection = new SqliteCollection(name, context);
        collections.set(name, collection);
      }
      return collection as unknown as DocumentCollection<T>;
    },
    /**
     * False while the disk refuses writes (the service reports NOT_SERVING, so /readyz is 503): after
     * a refusal, until requests' writes commit again with none refused, or the file system has
     * FREE_SPACE_TO_RECOVER free and a one-page write succeeds (no traffic reaches a service that
     * is not ready). The probe alone could fit in space the WAL already holds while the writes of
     * many requests, committed together, do not.
     */
    async ping() {
      if (failingSince === undefined) return true;
      if (file !== undefined && freeBytes(file) < FREE_SPACE_TO_RECOVER) return false;
      writes.flush();
      try {
        probe.immediate();
        failingSince = undefined;
        return true;
      } catch (err) {
        refusal(err);
        return false;
      }
    },
    close() {
      closing ??= closeStore();
      return closing;
    },
  };

  async function closeStore() {
    if (!db.open) return;
    compaction?.stop();
    writes.flush();
    // The checkpoint thread's connection first: the last one to close copies the WAL into the file and removes it.
    await checkpoints?.close();
    if (!db.open) return;
    db.close();
    if (file !== undefined) openHere.delete(file);
  }
}
