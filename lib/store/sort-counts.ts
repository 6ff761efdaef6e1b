import type Database from 'better-sqlite3';
import type { Statements } from './sqlite-statements';

/**
 * The running counts of sort entries (table `sort_counts`, store format 5) of one store file. Each entry written or
 * taken out moves its leading value's count; an operation's moves join its group commit's once the operation
 * succeeded, and the group's are written together just before its COMMIT, in its transaction: concurrent payments
 * moving the same few leading values (a platform's, a status's) write each count once per group, and a count is never
 * committed apart from its entries. Until then a count read adds the group's moves, as this connection reads the
 * group's entries uncommitted.
 */
export class SortCounts {
  /** The group's moves: collection → index → leading value → by how much. */
  private readonly group = new Map<string, Map<string, Map<string, number>>>();
  /** The running operation's moves (collection, index, lead, by; flat), to take back if it fails. */
  private readonly operation: Array<string | number> = [];

  constructor(private readonly s: Statements) {}

  moved(collection: string, idx: string, lead: string, by: number): void {
    this.bump(collection, idx, lead, by);
    this.operation.push(collection, idx, lead, by);
  }

  /** The running operation's writes are in: its moves stay in the group's. */
  kept(): void {
    this.operation.length = 0;
  }

  /** The running operation's writes were undone (its savepoint rolled back): so are its moves. */
  discard(): void {
    const moves = this.operation;
    for (let i = 0; i < moves.length; i += 4) {
      this.bump(moves[i] as string, moves[i + 1] as string, moves[i + 2] as string, -(moves[i + 3] as number));
    }
    moves.length = 0;
  }

  /** Writes the group's moves: in the group's transaction, before its COMMIT. */
  write(): void {
    for (const [collection, indexes] of this.group) {
      for (const [idx, leads] of indexes) {
        for (const [lead, by] of leads) if (by !== 0) this.s.moveSortCount.run(collection, idx, lead, by);
      }
    }
    this.group.clear();
  }

  /** The group's transaction was lost whole: its moves with it. */
  lost(): void {
    this.operation.length = 0;
    this.group.clear();
  }

  /** The entries under these leading values of one index, with the moves not yet written. */
  count(collection: string, idx: string, leads: string[]): number {
    const stored = this.s.sortCountAll.get(collection, idx, JSON.stringify(leads)) as number;
    const moved = this.group.get(collection)?.get(idx);
    return moved ? leads.reduce((n, lead) => n + (moved.get(lead) ?? 0), stored) : stored;
  }

  private bump(collection: string, idx: string, lead: string, by: number): void {
    let indexes = this.group.get(collection);
    if (!indexes) this.group.set(collection, indexes = new Map());
    let leads = indexes.get(idx);
    if (!leads) indexes.set(idx, leads = new Map());
    leads.set(lead, (leads.get(lead) ?? 0) + by);
  }
}

/** The running counts of a store file that disagree with its entries (none in a healthy file): for checks. */
export function sortCountDrift(
  db: Database.Database,
): Array<{ collection: string; idx: string; lead: string; entries: number; counted: number }> {
  return db.prepare(
    `SELECT e.collection, e.idx, e.lead, e.n AS entries, coalesce(c.n, 0) AS counted FROM
      (SELECT collection, idx, lead, count(*) AS n FROM sort_entries GROUP BY collection, idx, lead) e
      LEFT JOIN sort_counts c USING (collection, idx, lead) WHERE coalesce(c.n, 0) != e.n
     UNION ALL SELECT collection, idx, lead, 0, n FROM sort_counts c WHERE n != 0 AND NOT EXISTS
      (SELECT 1 FROM sort_entries e WHERE e.collection = c.collection AND e.idx = c.idx AND e.lead = c.lead)`,
  ).all() as Array<{ collection: string; idx: string; lead: string; entries: number; counted: number }>;
}
