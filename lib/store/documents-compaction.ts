import type Database from 'better-sqlite3';
import type { GroupCommit } from './group-commit';

/** Rows rewritten by one step: about 35 µs each (measured), so a step holds the thread for a few milliseconds. */
const ROWS_PER_STEP = 128;
/** The pause between steps while rows wait (up to about 2,500 rows a second), and between looks once caught up. */
const STEP_INTERVAL_MS = 50;
const CAUGHT_UP_INTERVAL_MS = 5_000;

export interface CompactionOptions {
  /** Rows behind the newest that are left alone: they may still be rewritten (a cached document is). */
  lagRows: number;
  rowsPerStep?: number;
  /** The pause between steps while rows wait, and once caught up. */
  intervalMs?: number;
  caughtUpMs?: number;
}

/**
 * Packs the documents table's pages behind the writes. A document grows and shrinks while it is hot
 * (a large body is written plain and deflated once cold, cold-bodies.ts), and SQLite rebalances a
 * page only when it falls under a third full, so the pages written while their rows were large stay
 * mostly empty: 70% of the documents table was unused space after 12,000 live payments
 * (docs/embedded-store.md).
 *
 * Each step takes the next ROWS_PER_STEP rows in rowid order, more than `lagRows` behind the newest,
 * deletes them and inserts them again with the same rowids, keys and bodies; SQLite packs rows
 * inserted in order into full pages, and the pages freed go to the file's free list for the rows
 * that follow. Index entries refer to rowids, so none changes. A step is one operation of a group
 * commit, and the row `documents_compacted` (store format 6) records in it how far the rewrite got:
 * each row is rewritten once, and a crash leaves either the step whole or nothing of it.
 */
export class DocumentsCompaction {
  private readonly sql: Record<'cursor' | 'newest' | 'rows' | 'remove' | 'insert' | 'advance', Database.Statement>;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly db: Database.Database,
    private readonly writes: GroupCommit,
    private readonly options: CompactionOptions,
  ) {
    this.sql = {
      cursor: db.prepare('SELECT below FROM documents_compacted WHERE id = 1').pluck(),
      newest: db.prepare('SELECT max(rowid) FROM documents').pluck(),
      rows: db.prepare(
        'SELECT rowid AS seq, collection, key, body FROM documents '
          + 'WHERE rowid >= ? AND rowid < ? ORDER BY rowid LIMIT ?',
      ),
      remove: db.prepare('DELETE FROM documents WHERE rowid >= ? AND rowid < ?'),
      insert: db.prepare('INSERT INTO documents (rowid, collection, key, body) VALUES (?, ?, ?, ?)'),
      advance: db.prepare('UPDATE documents_compacted SET below = ? WHERE id = 1'),
    };
  }

  /** Steps in the background until stopped; a step that fails (a full disk) is tried again later. */
  start(): void {
    const next = (delayMs: number) => {
      if (this.stopped) return;
      this.timer = setTimeout(() => void this.runStep().then(next), delayMs);
      this.timer.unref();
    };
    next(this.options.intervalMs ?? STEP_INTERVAL_MS);
  }

  /** One step in the group commit; resolves with the pause before the next. */
  private async runStep(): Promise<number> {
    const caughtUp = this.options.caughtUpMs ?? CAUGHT_UP_INTERVAL_MS;
    if (this.stopped || !this.db.open) return caughtUp;
    try {
      const more = await this.writes.run(() => this.step(), () => undefined);
      return more ? (this.options.intervalMs ?? STEP_INTERVAL_MS) : caughtUp;
    } catch {
      return caughtUp;
    }
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** Rewrites the next rows, inside the open transaction; true while more rows wait. */
  step(): boolean {
    const below = this.sql.cursor.get() as number;
    const until = ((this.sql.newest.get() as number | null) ?? 0) - this.options.lagRows + 1;
    if (until <= below) return false;
    const limit = this.options.rowsPerStep ?? ROWS_PER_STEP;
    const rows = this.sql.rows.all(below, until, limit) as Array<
      { seq: number; collection: string; key: string; body: Buffer }
    >;
    const end = rows.length === limit ? rows[rows.length - 1].seq + 1 : until;
    this.sql.remove.run(below, end);
    for (const row of rows) this.sql.insert.run(row.seq, row.collection, row.key, row.body);
    this.sql.advance.run(end);
    return end < until;
  }
}
