import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteDocumentStore, type SqliteDocumentStore } from './sqlite-document-store';

/**
 * A payment-sized document: about 1.8 KB of BSON (two to a page while plain), a third of it once deflated. Random
 * hex keeps each body its own.
 */
const payment = (i: number) => ({
  _id: `p${i}`,
  customer: `c${i % 7}`,
  reference: randomBytes(96).toString('hex'),
  lines: Array.from({ length: 12 }, (_, n) => `settlement step ${n} of payment ${i}: posted to the ledger`),
  memo: 'payment between two customers of one platform '.repeat(20),
});

const NEVER = { lagRows: Number.MAX_SAFE_INTEGER };

/** The documents table's leaf pages: how many, and the share of their bytes unused. */
function leafPages(store: SqliteDocumentStore) {
  return store.database
    .prepare(
      "SELECT count(*) AS pages, sum(unused) * 1.0 / sum(pgsize) AS unusedShare FROM dbstat WHERE name = 'documents' "
        + "AND pagetype = 'leaf'",
    )
    .get() as { pages: number; unusedShare: number };
}

const compactedBelow = (store: SqliteDocumentStore) =>
  store.database.prepare('SELECT below FROM documents_compacted').pluck().get() as number;
const newestRow = (store: SqliteDocumentStore) =>
  store.database.prepare('SELECT max(rowid) FROM documents').pluck().get() as number;

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(check()).toBe(true);
}

describe('the documents table packed behind the writes', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'compaction-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('packs rows that were written large and deflated once cold, and changes none of them', async () => {
    const path = join(dir, 'store.sqlite');
    // Written with nothing packed: each payment plain while cached (8 documents), then deflated in place.
    let store = createSqliteDocumentStore({ path, cacheDocuments: 8, compaction: NEVER });
    const payments = store.collection('payments');
    await payments.createIndex({ keys: { customer: 1 } });
    const written = Array.from({ length: 600 }, (_, i) => payment(i));
    for (const doc of written) await payments.insertOne(doc);
    await store.close();
    store = createSqliteDocumentStore({ path, cacheDocuments: 8, compaction: NEVER });
    const sparse = leafPages(store);
    expect(sparse.unusedShare).toBeGreaterThan(0.5);
    await store.close();

    store = createSqliteDocumentStore({ path, cacheDocuments: 8, compaction: { lagRows: 20, intervalMs: 1 } });
    await until(() => compactedBelow(store) === newestRow(store) - 20 + 1);
    const packed = leafPages(store);
    expect(packed.pages).toBeLessThan(sparse.pages / 2);
    expect(packed.unusedShare).toBeLessThan(0.2);
    const read = store.collection('payments');
    expect(await read.find({}, { sort: { _id: 1 } })).toEqual([...written].sort((a, b) => (a._id < b._id ? -1 : 1)));
    expect(await read.countDocuments({ customer: 'c3' })).toBe(written.filter((p) => p.customer === 'c3').length);
    await store.close();
  });

  it('records how far it got, so a reopened store goes on from there; the newest rows wait', async () => {
    const path = join(dir, 'store.sqlite');
    const options = {
      path,
      cacheDocuments: 8,
      compaction: { lagRows: 50, intervalMs: 1, caughtUpMs: 1, rowsPerStep: 16 },
    };
    let store = createSqliteDocumentStore(options);
    const payments = store.collection('payments');
    for (let i = 0; i < 200; i++) await payments.insertOne(payment(i));
    await until(() => compactedBelow(store) === 151);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(compactedBelow(store)).toBe(151);
    await store.close();

    store = createSqliteDocumentStore({ ...options, compaction: NEVER });
    expect(compactedBelow(store)).toBe(151);
    const more = store.collection('payments');
    for (let i = 200; i < 300; i++) await more.insertOne(payment(i));
    await store.close();

    store = createSqliteDocumentStore(options);
    await until(() => compactedBelow(store) === 251);
    expect(await store.collection('payments').countDocuments({})).toBe(300);
    await store.close();
  });

  it('a step that fails midway (its rows deleted) leaves every row and the cursor as they were', async () => {
    const path = join(dir, 'store.sqlite');
    const options = { path, cacheDocuments: 8, compaction: { lagRows: 10, intervalMs: 1, caughtUpMs: 1 } };
    let store = createSqliteDocumentStore({ ...options, compaction: NEVER });
    const written = Array.from({ length: 100 }, (_, i) => payment(i));
    for (const doc of written) await store.collection('payments').insertOne(doc);
    // The fifth row's insert is refused: the step has deleted its rows and put four back when it fails.
    store.database.exec(`CREATE TRIGGER refuse BEFORE INSERT ON documents WHEN NEW.rowid = 5
      BEGIN SELECT RAISE(ABORT, 'refused'); END`);
    await store.close();

    store = createSqliteDocumentStore(options);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(compactedBelow(store)).toBe(0);
    const payments = store.collection('payments');
    const later = payment(100);
    await payments.insertOne(later); // the store writes on: a failed step takes nothing else with it
    expect(await payments.countDocuments({})).toBe(101);
    store.database.exec('DROP TRIGGER refuse');
    await until(() => compactedBelow(store) === newestRow(store) - 10 + 1);
    await store.close();

    store = createSqliteDocumentStore({ ...options, compaction: NEVER });
    const all = await store.collection('payments').find({}, { sort: { _id: 1 } });
    expect(all).toEqual([...written, later].sort((a, b) => (a._id < b._id ? -1 : 1)));
    await store.close();
  });
});
