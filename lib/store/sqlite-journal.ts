import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { BSON } from 'bson';
import type { Doc } from './document-store';

/** `normal`: an acknowledged write survives a crash of the process; `full`: also a loss of power. */
export type SyncPolicy = 'normal' | 'full';

/** A document written (`after`) or deleted (`after` undefined), under its serialized `_id`. */
export interface JournalChange {
  key: string;
  after?: Doc;
}

/** Thrown when another process holds the data file: the embedded store is single-replica. */
export class DataDirectoryInUseError extends Error {
  constructor(readonly path: string) {
    super(`${path} is in use by another process: the embedded store serves one replica (stop the other process, or give this one its own DATA_DIR)`);
    this.name = 'DataDirectoryInUseError';
  }
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

  constructor(readonly path: string, sync: SyncPolicy) {
    mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path, { timeout: 0 });
    try {
      this.db.pragma('locking_mode = EXCLUSIVE');
      this.db.pragma('journal_mode = WAL');
      this.db.pragma(`synchronous = ${sync === 'full' ? 'FULL' : 'NORMAL'}`);
      // Taking a write lock now holds it (exclusive mode) until close: a second opener fails here.
      this.db.exec('BEGIN IMMEDIATE; COMMIT');
    } catch (err) {
      this.db.close();
      if ((err as { code?: string }).code === 'SQLITE_BUSY') throw new DataDirectoryInUseError(path);
      throw err;
    }
    this.db.exec(`CREATE TABLE IF NOT EXISTS documents (
      collection TEXT NOT NULL, key TEXT NOT NULL, body BLOB NOT NULL, PRIMARY KEY (collection, key))`);
    // ON CONFLICT keeps the row's rowid, so reading back in rowid order is insertion order.
    this.upsert = this.db.prepare('INSERT INTO documents (collection, key, body) VALUES (?, ?, ?) ON CONFLICT (collection, key) DO UPDATE SET body = excluded.body');
    this.remove = this.db.prepare('DELETE FROM documents WHERE collection = ? AND key = ?');
    this.readAll = this.db.prepare('SELECT body FROM documents WHERE collection = ? ORDER BY rowid');
    this.writeMany = this.db.transaction((collection: string, changes: JournalChange[]) => {
      for (const change of changes) this.writeOne(collection, change);
    });
  }

  /** Every stored document of a collection, in insertion order. */
  load(collection: string): Doc[] {
    return (this.readAll.all(collection) as Array<{ body: Buffer }>).map((row) => BSON.deserialize(row.body, { promoteBuffers: true }) as Doc);
  }

  /** Writes the changes of one operation together: all of them or none. */
  write(collection: string, changes: JournalChange[]): void {
    if (changes.length === 1) this.writeOne(collection, changes[0]);
    else if (changes.length > 1) this.writeMany(collection, changes);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  private writeOne(collection: string, change: JournalChange): void {
    if (change.after) this.upsert.run(collection, change.key, BSON.serialize(change.after));
    else this.remove.run(collection, change.key);
  }
}
