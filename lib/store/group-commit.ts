import type Database from 'better-sqlite3';

interface Waiter {
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit: the writes of every operation that arrives while a transaction is open share it,
 * and it commits (one fsync under DATA_SYNC=full, one WAL append under normal) once the event loop
 * has run what was ready, on the next `setImmediate`. Each operation runs in its own savepoint, so
 * one that fails (duplicate key, invalid update) changes nothing and leaves the others in; each
 * is acknowledged (its promise resolves) only after the COMMIT that holds it succeeded. When the
 * COMMIT fails, or SQLite rolled the whole transaction back (a full disk can), every operation of
 * the group is refused and `onLost` is told to forget what it remembered of them.
 */
export class GroupCommit {
  private waiting: Waiter[] = [];
  private scheduled = false;
  private readonly sql: Record<
    'begin' | 'savepoint' | 'release' | 'rollbackTo' | 'commit' | 'rollback',
    Database.Statement
  >;

  constructor(
    private readonly db: Database.Database,
    private readonly hooks: {
      /** Told when a group's transaction was lost whole. */
      onLost: () => void;
      /** What an operation's or the COMMIT's error is answered as. */
      translate: (err: unknown) => unknown;
      /** Writes what the group left to write once (running counts, cold bodies), in its transaction. */
      beforeCommit?: () => void;
      /** Told after each COMMIT that succeeded (the WAL grew: a checkpoint follows, sqlite-checkpointer.ts). */
      onCommitted?: () => void;
    },
  ) {
    this.sql = {
      begin: db.prepare('BEGIN IMMEDIATE'),
      savepoint: db.prepare('SAVEPOINT operation'),
      release: db.prepare('RELEASE operation'),
      rollbackTo: db.prepare('ROLLBACK TO operation'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
    };
  }

  /** Runs `write` now (synchronously, atomically with respect to other callers); resolves once committed. */
  run<T>(write: () => T, remember: (result: T) => void): Promise<T> {
    if (!this.db.inTransaction) {
      this.sql.begin.run();
      this.schedule();
    }
    this.sql.savepoint.run();
    let result: T;
    try {
      result = write();
      this.sql.release.run();
    } catch (err) {
      const refusal = this.hooks.translate(err);
      this.undo(refusal);
      return Promise.reject(refusal);
    }
    remember(result);
    return new Promise<T>((resolve, reject) => this.waiting.push({ resolve: () => resolve(result), reject }));
  }

  /** Commits what is open now (before a schema change or close). */
  flush(): void {
    this.scheduled = false;
    const waiting = this.waiting;
    this.waiting = [];
    if (!this.db.inTransaction) {
      if (waiting.length) this.lose(waiting, new Error('the store transaction was rolled back'));
      return;
    }
    try {
      this.hooks.beforeCommit?.();
      this.sql.commit.run();
    } catch (err) {
      if (this.db.inTransaction) this.sql.rollback.run();
      this.lose(waiting, this.hooks.translate(err));
      return;
    }
    this.hooks.onCommitted?.();
    for (const waiter of waiting) waiter.resolve();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      if (this.scheduled) this.flush();
    });
  }

  /** Undoes the failed operation's writes; when SQLite already dropped the whole transaction, the group is lost. */
  private undo(refusal: unknown): void {
    if (this.db.inTransaction) {
      this.sql.rollbackTo.run();
      this.sql.release.run();
      return;
    }
    const waiting = this.waiting;
    this.waiting = [];
    this.lose(waiting, refusal);
  }

  private lose(waiting: Waiter[], err: unknown): void {
    this.hooks.onLost();
    for (const waiter of waiting) waiter.reject(err);
  }
}
