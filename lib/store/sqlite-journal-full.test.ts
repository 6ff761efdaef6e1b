import type Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '../errors';
import { SqliteJournal } from './sqlite-journal';

/**
 * A full disk, injected with SQLite's own page limit (max_page_count): the file cannot grow, so
 * SQLite answers SQLITE_FULL exactly as on a full file system.
 */
const dir = mkdtempSync(join(tmpdir(), 'journal-full-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const dbOf = (journal: SqliteJournal) => (journal as unknown as { db: Database.Database }).db;
const big = (key: string) => ({ key, after: { _id: key, blob: Buffer.alloc(64 * 1024, 1) } });

test('a full disk refuses the write with STORAGE_FULL and Retry-After, canWrite says so, and it recovers without a reopen', () => {
  const journal = new SqliteJournal(join(dir, 'service.sqlite'), 'normal');
  try {
    journal.write('things', [big('before')]);
    const pages = dbOf(journal).pragma('page_count', { simple: true }) as number;
    dbOf(journal).pragma(`max_page_count = ${pages}`);

    let refusal: unknown;
    try { journal.write('things', [big('during')]); } catch (err) { refusal = err; }
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ code: 'STORAGE_FULL', details: { retryAfterSeconds: 30 } });
    expect(journal.canWrite()).toBe(false);

    dbOf(journal).pragma(`max_page_count = ${pages * 100}`);
    expect(journal.canWrite()).toBe(true);
    journal.write('things', [big('after')]);
    expect(journal.load('things').map((d) => d._id)).toEqual(['before', 'after']);
  } finally {
    journal.close();
  }
});

test('other failures are not taken for a full disk', () => {
  const journal = new SqliteJournal(join(dir, 'other.sqlite'), 'normal');
  journal.close();
  expect(() => journal.write('things', [big('closed')])).toThrow(/not open/);
  expect(() => journal.write('things', [big('closed')])).not.toThrow(AppError);
});
