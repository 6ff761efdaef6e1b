import type Database from 'better-sqlite3';
import { BSON } from 'bson';
import { AppError } from '../errors';
import type { Doc } from './document-store';
import { openStoreFile, type SyncPolicy } from './sqlite-schema';

/** How long a client is told to wait before retrying a write refused for a full disk. */
export const STORAGE_FULL_RETRY_AFTER_SECONDS = 30;

/** SQLite's answer when the file cannot grow: the disk (or its quota) is full. */
const isStorageFull = (err: unknown) => ['SQLITE_FULL'].includes((err as { code?: string }).code ?? '');

export { DataDirectoryInUseError, type SyncPolicy } from './sqlite-schema';

/** A document written (`after`) or deleted (`after` undefined), under its serialized `_id`. */
export interface JournalChange {
  key: string;
  after?: Doc;
}

/**
 * The durable copy of an embedded store: one SQLite file (WAL mode) holding every document of every
 * collection as BSON (MongoDB's own encoding, so a document comes back with exactly the types the
 * MongoDB adapter would give), written synchronously before a change is applied in memory and acknowledged.
 * The file is locked for this process alone (SQLite's exclusive locking mode), so a second process
 * on the same data directory fails at open instead of keeping a ledger of its own.
 */
export class SqliteJournal {
  private readonly db: Database.Database;
  private readonly upsert: Database.Statement;
  private readonly remove: Database.Statement;
  private readonly readAll: Database.Statement;
  private readonly writeMany: (collection: string, changes: JournalChange[]) => void;
  private readonly probe: () => void;
  /** Since when writes have failed for a full disk; undefined while they succeed. */
  private failingSince: number | undefined;

  constructor(readonly path: string, sync: SyncPolicy) {
    // Format 1 only: a file the SQLite engine (format 2) upgraded is refused with StoreVersionError.
    this.db = openStoreFile(path, sync, 1);
    // ON CONFLICT keeps the row's rowid, so reading back in rowid order is insertion order.
    this.upsert = this.db.prepare('INSERT INTO documents (collection, key, body) VALUES (?, ?, ?) ON CONFLICT (collection, key) DO UPDATE SET body = excluded.body');
    this.remove = this.db.prepare('DELETE FROM documents WHERE collection = ? AND key = ?');
    this.readAll = this.db.prepare('SELECT body FROM documents WHERE collection = ? ORDER BY rowid');
    // The write check takes a fresh page (a row of one page's size, removed in the same transaction),
    // as a document write would: a write into space the file already has would not tell.
    this.db.exec('CREATE TABLE IF NOT EXISTS write_check (id INTEGER PRIMARY KEY, pad BLOB NOT NULL)');
    const pageSize = this.db.pragma('page_size', { simple: true }) as number;
    const take = this.db.prepare('INSERT INTO write_check (id, pad) VALUES (1, zeroblob(?))');
    const release = this.db.prepare('DELETE FROM write_check');
    this.probe = this.db.transaction(() => {
      release.run();
      take.run(pageSize);
      release.run();
    });
    this.writeMany = this.db.transaction((collection: string, changes: JournalChange[]) => {
      for (const change of changes) this.writeOne(collection, change);
    });
  }

  /** Every stored document of a collection, in insertion order. */
  load(collection: string): Doc[] {
    return (this.readAll.all(collection) as Array<{ body: Buffer }>).map((row) => BSON.deserialize(row.body, { promoteBuffers: true }) as Doc);
  }

  /**
   * Writes the changes of one operation together: all of them or none. A full disk refuses the
   * write with STORAGE_FULL (503 with Retry-After at the gateway) and makes `canWrite` false until
   * a write succeeds again.
   */
  write(collection: string, changes: JournalChange[]): void {
    this.guarded(() => {
      if (changes.length === 1) this.writeOne(collection, changes[0]);
      else if (changes.length > 1) this.writeMany(collection, changes);
    });
  }

  /** Whether writes succeed: after a failure, asked of the disk again with a one-row write. */
  canWrite(): boolean {
    if (this.failingSince === undefined) return true;
    try {
      this.guarded(this.probe);
      return true;
    } catch {
      return false;
    }
  }

  private guarded(write: () => void): void {
    try {
      write();
      this.failingSince = undefined;
    } catch (err) {
      if (!isStorageFull(err)) throw err;
      this.failingSince ??= Date.now();
      throw new AppError('STORAGE_FULL', 'The data store cannot write: its disk is full. Nothing was changed; retry later',
        { retryAfterSeconds: STORAGE_FULL_RETRY_AFTER_SECONDS }, { cause: err });
    }
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  private writeOne(collection: string, change: JournalChange): void {
    if (change.after) this.upsert.run(collection, change.key, BSON.serialize(change.after));
    else this.remove.run(collection, change.key);
  }
}
