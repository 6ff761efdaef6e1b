import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { releaseVersion } from '../runtime/release';
import { formerSortIndexId, sortIndexOf } from './sort-index';

/** `normal`: an acknowledged write survives a crash of the process; `full`: also a loss of power. */
export type SyncPolicy = 'normal' | 'full';

/**
 * Pages the WAL may hold before a commit copies them into the file (≈40 MB at 4 KB pages; the WAL
 * is emptied at close). Measured: ≈0.73 → ≈0.28 ms (wall) per COMMIT
 * against SQLite's default of 1,000 (docs/embedded-store.md).
 */
export const WAL_CHECKPOINT_PAGES = 10_000;

/**
 * The WAL's bound, in frames (one page and a 24-byte header each): ≈49 MB at 4 KB pages. After a
 * COMMIT that leaves this many, the store's connection completes a checkpoint before the next
 * write (sqlite-checkpointer.ts, WalLimit), so the WAL file holds at most this plus one group
 * commit's frames; `journal_size_limit` cuts a file that a larger transaction grew back to it.
 */
export const WAL_LIMIT_PAGES = 12_000;

/** The WAL file's size at `pages` frames: its 32-byte header, then each frame's 24-byte header and page. */
export const walBytes = (pages: number, pageSize: number): number => 32 + pages * (pageSize + 24);

/** Thrown when another process holds the data file: the embedded store is single-replica. */
export class DataDirectoryInUseError extends Error {
  constructor(readonly path: string) {
    super(
      `${path} is in use by another process: the embedded store serves one `
        + 'replica (stop the other process, or give this one its own DATA_DIR)',
    );
    this.name = 'DataDirectoryInUseError';
  }
}

/** Thrown when a store file was written by a newer release than this one reads. */
export class StoreVersionError extends Error {
  constructor(readonly path: string, readonly found: number, readonly supported: number, readonly writtenBy?: string) {
    super(
      `${path} was written by a newer release${
        writtenBy ? `, grid-payments ${writtenBy},` : ''
      } in store format ${found}; `
        + `this release (grid-payments ${releaseVersion()}) reads `
        + `store formats up to ${supported}. Nothing was changed: `
        + `run ${
          writtenBy ? `${writtenBy} or later` : 'that release'
        }, or restore the backup taken before the upgrade (docs/operating.md, "Upgrades")`,
    );
    this.name = 'StoreVersionError';
  }
}

/**
 * The store file's format, one step per version, each applied once in the transaction that records
 * it (PRAGMA user_version). Version 1 is the journal of every document (the table the crash tests
 * read directly); version 2 adds the tables the SQLite engine answers queries from; version 3 lets
 * large bodies be stored deflated; version 4 keys the sort entries of a compound index by every
 * field before its sort field; version 5 gives a document one sort entry per combination of its leading values and
 * keeps a running count of the entries under each leading value; version 6 records how far the documents table has
 * been packed behind the writes.
 */
const MIGRATIONS: ReadonlyArray<{ version: number; what: string; up: (db: Database.Database) => void }> = [
  {
    version: 1,
    what: 'every document of every collection as BSON, in insertion order (rowid)',
    up: (db) =>
      db.exec(`CREATE TABLE IF NOT EXISTS documents (
      collection TEXT NOT NULL, key TEXT NOT NULL, body BLOB NOT NULL, PRIMARY KEY (collection, key))`),
  },
  {
    version: 2,
    what: 'declared indexes and their entries: field values, unique keys, sort keys',
    up: (db) =>
      db.exec(`
      CREATE TABLE store_indexes (collection TEXT NOT NULL, name TEXT NOT NULL, spec TEXT NOT NULL,
        PRIMARY KEY (collection, name));
      CREATE TABLE field_entries (collection TEXT NOT NULL, path TEXT NOT NULL, value TEXT NOT NULL,
        seq INTEGER NOT NULL, PRIMARY KEY (collection, path, value, seq)) WITHOUT ROWID;
      CREATE TABLE unique_entries (collection TEXT NOT NULL, name TEXT NOT NULL, value TEXT NOT NULL, key TEXT NOT NULL,
        PRIMARY KEY (collection, name, value)) WITHOUT ROWID;
      CREATE TABLE sort_entries (collection TEXT NOT NULL, idx TEXT NOT NULL, lead TEXT NOT NULL,
        sort_key TEXT NOT NULL, seq INTEGER NOT NULL,
        PRIMARY KEY (collection, idx, lead, sort_key, seq)) WITHOUT ROWID;`),
  },
  {
    version: 3,
    what: 'large document bodies stored deflated (four zero bytes, '
      + 'then the raw deflate of the BSON); the tables are unchanged',
    // Nothing to rewrite: bodies of version 2 stay readable and are compressed when next written.
    // The version tells an older release that it cannot read this file's bodies.
    up: () => undefined,
  },
  {
    version: 4,
    what: 'sort entries of a compound index led by every field before its sort '
      + 'field (not only the first): rebuilt when each collection next opens',
    up: (db) => {
      db.exec(
        'CREATE TABLE sort_builds (collection TEXT NOT NULL, idx '
          + 'TEXT NOT NULL, PRIMARY KEY (collection, idx)) WITHOUT ROWID',
      );
      const rows = db.prepare('SELECT collection, name, spec FROM store_indexes').all() as Array<
        { collection: string; name: string; spec: string }
      >;
      const declared = rows.map((row) => {
        const spec = JSON.parse(row.spec) as {
          keys: Record<string, number>;
          unique?: boolean;
          partialFilter?: Record<string, unknown>;
        };
        const fields = Object.keys(spec.keys);
        return {
          collection: row.collection,
          now: sortIndexOf(fields, spec.unique ?? false, row.name, spec.partialFilter)?.id,
          before: formerSortIndexId(fields, spec.unique ?? false),
        };
      });
      const pending = db.prepare('INSERT OR IGNORE INTO sort_builds (collection, idx) VALUES (?, ?)');
      const drop = db.prepare('DELETE FROM sort_entries WHERE collection = ? AND idx = ?');
      for (const index of declared) {
        if (index.now === index.before) continue;
        if (index.now !== undefined) pending.run(index.collection, index.now);
        const stillUsed = declared.some((other) => other.collection === index.collection && other.now === index.before);
        if (index.before !== undefined && !stillUsed) drop.run(index.collection, index.before);
      }
    },
  },
  {
    version: 5,
    what: 'a document whose leading field holds several values sits in a sort index under each of them '
      + '(multikey, marked once more under #M), rebuilt when each collection next opens; '
      + 'a running count of the entries under each leading value',
    up: (db) => {
      db.exec(`CREATE TABLE sort_counts (collection TEXT NOT NULL, idx TEXT NOT NULL, lead TEXT NOT NULL,
          n INTEGER NOT NULL, PRIMARY KEY (collection, idx, lead)) WITHOUT ROWID;
        INSERT INTO sort_counts
          SELECT collection, idx, lead, count(*) FROM sort_entries GROUP BY collection, idx, lead`);
      // Before, such a document had one entry under the irregular lead (#I), as an opaque value still has: every index
      // holding one is rebuilt (looked for index by index, not by a scan of every entry).
      const holdsIrregular = db.prepare("SELECT 1 FROM sort_entries WHERE collection = ? AND idx = ? AND lead = '#I'");
      const irregular = declaredSortIndexes(db).filter(({ collection, idx }) => holdsIrregular.get(collection, idx));
      const pending = db.prepare('INSERT OR IGNORE INTO sort_builds (collection, idx) VALUES (?, ?)');
      for (const { collection, idx } of irregular) {
        for (const table of ['sort_entries', 'sort_counts']) {
          db.prepare(`DELETE FROM ${table} WHERE collection = ? AND idx = ?`).run(collection, idx);
        }
        pending.run(collection, idx);
      }
    },
  },
  {
    version: 6,
    what: 'the documents table packed behind the writes (rows rewritten in rowid order, '
      + 'unchanged): how far, below which rowid, it got',
    // An earlier file starts at 0: its documents are packed once, in the background (documents-compaction.ts).
    up: (db) =>
      db.exec(`CREATE TABLE documents_compacted (id INTEGER PRIMARY KEY CHECK (id = 1), below INTEGER NOT NULL);
        INSERT INTO documents_compacted (id, below) VALUES (1, 0)`),
  },
];

export const LATEST_STORE_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

/** The sort indexes the declared indexes keep, by the ids of this release. */
function declaredSortIndexes(db: Database.Database): Array<{ collection: string; idx: string }> {
  const rows = db.prepare('SELECT collection, name, spec FROM store_indexes').all() as Array<
    { collection: string; name: string; spec: string }
  >;
  return rows.flatMap((row) => {
    const spec = JSON.parse(row.spec) as {
      keys: Record<string, number>;
      unique?: boolean;
      partialFilter?: Record<string, unknown>;
    };
    const idx = sortIndexOf(Object.keys(spec.keys), spec.unique ?? false, row.name, spec.partialFilter)?.id;
    return idx === undefined ? [] : [{ collection: row.collection, idx }];
  });
}

/**
 * Opens a store file in WAL mode and brings its format to `target`. SQLite's normal locking mode,
 * so that a second connection of this process can checkpoint the WAL on another thread
 * (sqlite-checkpointer.ts); one process per data directory is the lock file's guard
 * (`<DATA_DIR>/<service>.lock`, lib/runtime/store-lock.ts), and the store refuses a second opener
 * in its own process.
 */
export function openStoreFile(path: string, sync: SyncPolicy, target: number): Database.Database {
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { timeout: 0 });
  try {
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${sync === 'full' ? 'FULL' : 'NORMAL'}`);
    // Checkpoint every WAL_CHECKPOINT_PAGES (not SQLite's 1,000): a checkpoint copies each page once
    // however often it was rewritten since the last one, and the hot pages (the tail of the documents,
    // the balances, the index entries) are rewritten by nearly every commit.
    db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
    // A file held by an older release (exclusive locking mode) makes this fail: refused as in use.
    db.exec('BEGIN IMMEDIATE; COMMIT');
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY') throw new DataDirectoryInUseError(path);
    throw err;
  }
  try {
    migrate(db, path, target);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

/**
 * Applies the migrations after the file's version up to `target`, together, and records this release
 * as the file's last writer; refuses a newer file, naming the release that wrote it.
 */
export function migrate(db: Database.Database, path: string, target: number): void {
  const found = db.pragma('user_version', { simple: true }) as number;
  if (found > target) throw new StoreVersionError(path, found, target, lastWriter(db));
  db.transaction(() => {
    for (const migration of MIGRATIONS) if (migration.version > found && migration.version <= target) migration.up(db);
    db.pragma(`user_version = ${target}`);
    // Outside the numbered formats: a table older releases ignore, read only to name a newer writer.
    db.exec(
      'CREATE TABLE IF NOT EXISTS store_writer (id INTEGER PRIMARY KEY '
        + 'CHECK (id = 1), release TEXT NOT NULL, format INTEGER NOT NULL)',
    );
    db.prepare('INSERT OR REPLACE INTO store_writer (id, release, format) VALUES (1, ?, ?)').run(
      releaseVersion(),
      target,
    );
  }).immediate();
}

/** The release that last opened the file for writing, when it recorded itself. */
function lastWriter(db: Database.Database): string | undefined {
  try {
    return (db.prepare('SELECT release FROM store_writer WHERE id = 1').pluck().get() as string | undefined)
      ?? undefined;
  } catch {
    return undefined; // no such table: written before releases recorded themselves
  }
}
