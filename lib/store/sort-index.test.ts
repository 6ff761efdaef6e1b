import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Doc, DocumentCollection, Filter, Sort } from './document-store';
import { createEmbeddedDocumentStore } from './embedded-document-store';
import { mingoEngine } from './mingo-engine';
import { compareSortKeys, sortFields, sortKeysOf } from './sort-documents';
import { sortCountDrift } from './sort-counts';
import { createSqliteDocumentStore } from './sqlite-document-store';

const STATUSES = ['COMPLETED', 'COMPLETED', 'COMPLETED', 'PENDING', 'FAILED'];

function payment(i: number): Doc {
  return {
    _id: `p${String(i).padStart(4, '0')}`,
    platformId: i % 7 === 0 ? 'other' : 'plat',
    customerId: `c${i % 13}`,
    status: i % 50 === 0 ? 'REFUNDED' : STATUSES[i % STATUSES.length],
    createdAt: new Date(Date.UTC(2026, 0, 1) + Math.floor(i / 3) * 60_000).toISOString(),
    ...(i % 4 === 0 ? {} : { quote: { id: `q${i}` } }),
  };
}

const DOCS = Array.from({ length: 400 }, (_, i) => payment(i));

/** What MongoDB answers: every matching document sorted (ties in insertion order), then the page. */
function expected(filter: Filter, sort: Sort, limit: number): string[] {
  const query = mingoEngine.compileFilter(filter);
  const fields = sortFields(sort);
  return DOCS.map((doc, seq) => ({ doc, seq, keys: sortKeysOf(doc, fields) })).filter(({ doc }) => query.test(doc))
    .sort((a, b) => compareSortKeys(a.keys, b.keys, fields) || a.seq - b.seq).slice(0, limit).map(({ doc }) => doc._id);
}

/** Runs `use` with the path of a store file in a directory of its own, removed afterwards. */
async function withStoreFile(use: (path: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'sort-index-'));
  try {
    await use(join(dir, 'store.sqlite'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('sort entries of compound indexes', () => {
  let payments: DocumentCollection;

  beforeAll(async () => {
    payments = createEmbeddedDocumentStore().collection('payments');
    await payments.createIndex({ keys: { platformId: 1, createdAt: -1, _id: -1 } });
    await payments.createIndex({ keys: { platformId: 1, status: 1, createdAt: -1 }, name: 'status_created' });
    await payments.createIndex({
      keys: { platformId: 1, createdAt: -1, _id: -1 },
      partialFilter: { 'quote.id': { $exists: true } },
      name: 'quotes',
    });
    for (const doc of DOCS) await payments.insertOne(doc);
  });

  const middle = DOCS[200].createdAt as string;
  const cases: Array<[string, Filter]> = [
    ['a rare status', { $and: [{ platformId: 'plat' }, { status: 'REFUNDED' }] }],
    ['a common status', { $and: [{ platformId: 'plat' }, { status: 'COMPLETED' }] }],
    ['statuses', { $and: [{ platformId: 'plat' }, { status: { $in: ['FAILED', 'PENDING'] } }] }],
    ['a date range', {
      $and: [{ platformId: 'plat' }, { createdAt: { $gte: DOCS[100].createdAt } }, { createdAt: { $lt: middle } }],
    }],
    ['a status after a cursor', {
      $and: [{ platformId: 'plat', status: 'FAILED' }, {
        $or: [{ createdAt: { $lt: middle } }, { createdAt: middle, _id: { $lt: 'p0200' } }],
      }],
    }],
    ['quotes only', {
      $and: [{ platformId: 'plat' }, { 'quote.id': { $exists: true } }, { createdAt: { $lte: middle } }],
    }],
  ];

  it.each(cases)('%s: the same pages and counts as a scan, from an index', async (_label, filter) => {
    for (const direction of [1, -1] as const) {
      const sort: Sort = { createdAt: direction, _id: direction };
      const found = await payments.find(filter, { sort, limit: 21 });
      expect(found.map((doc) => doc._id)).toEqual(expected(filter, sort, 21));
      const plan = await payments.explain(filter, { sort, limit: 21 });
      expect(plan).toMatchObject({ source: 'index', sorted: true });
      expect(plan.filtered.filter((name) => !name.startsWith('$or'))).toEqual([]);
    }
    expect(await payments.countDocuments(filter)).toBe(expected(filter, { _id: 1 }, DOCS.length).length);
    // A list counts its filter without the cursor's $or: such a count is one of index entries.
    if (!JSON.stringify(filter).includes('$or')) {
      expect(await payments.explain(filter, { count: true })).toMatchObject({ countedFromIndex: true });
    }
  });

  it('answers a rare status from its own entries, not by walking the platform', async () => {
    const plan = await payments.explain({ $and: [{ platformId: 'plat' }, { status: 'REFUNDED' }] }, {
      sort: { createdAt: -1, _id: -1 },
      limit: 2,
    });
    expect(plan).toMatchObject({ index: 'status_created', served: ['platformId', 'status'], filtered: [] });
  });

  it('uses a partial index only for a filter that implies its condition', async () => {
    const plan = await payments.explain({ platformId: 'plat' }, { sort: { createdAt: -1, _id: -1 }, limit: 5 });
    expect(plan.index).not.toBe('quotes');
    const quotes = { platformId: 'plat', 'quote.id': { $exists: true } };
    expect(await payments.explain(quotes, { sort: { createdAt: -1, _id: -1 }, limit: 5 })).toMatchObject({
      index: 'quotes',
      filtered: [],
    });
  });

  it('keeps the entries when a document moves between leading values', async () => {
    const store = createEmbeddedDocumentStore();
    const moving = store.collection('moving');
    await moving.createIndex({ keys: { platformId: 1, status: 1, createdAt: -1 } });
    await moving.insertOne({ _id: 'a', platformId: 'p', status: 'PENDING', createdAt: '2026-01-01' });
    await moving.insertOne({ _id: 'b', platformId: 'p', status: 'PENDING', createdAt: '2026-01-02' });
    await moving.updateOne({ _id: 'a' }, { $set: { status: 'FAILED' } });
    const page = async (status: string) =>
      (await moving.find({ platformId: 'p', status }, { sort: { createdAt: -1 }, limit: 5 })).map((doc) => doc._id);
    expect(await page('FAILED')).toEqual(['a']);
    expect(await page('PENDING')).toEqual(['b']);
    expect(await moving.countDocuments({ platformId: 'p', status: 'PENDING' })).toBe(1);
    await store.close();
  });
});

describe('a store file of format 3', () => {
  it('rebuilds the sort entries of compound indexes with several leading fields as the collection opens', async () => {
    await withStoreFile(async (path) => {
      let store = createSqliteDocumentStore({ path });
      let payments = store.collection('payments');
      await payments.createIndex({ keys: { platformId: 1, status: 1, createdAt: -1 }, name: 'status_created' });
      for (const doc of DOCS.slice(0, 60)) await payments.insertOne(doc);
      await store.close();
      // What format 3 left: no entries under the index's new id (its entries were led by platformId alone).
      const db = new Database(path);
      db.exec(
        'DELETE FROM sort_entries; DROP TABLE sort_builds; DROP TABLE sort_counts; DROP TABLE documents_compacted; '
          + 'PRAGMA user_version = 3',
      );
      db.close();

      store = createSqliteDocumentStore({ path });
      payments = store.collection('payments');
      const filter = { platformId: 'plat', status: 'COMPLETED' };
      const sort: Sort = { createdAt: -1 };
      expect((await payments.find(filter, { sort, limit: 10 })).map((doc) => doc._id)).toEqual(
        expected(filter, sort, DOCS.length).filter((id) => Number(id.slice(1)) < 60).slice(0, 10),
      );
      expect(await payments.explain(filter, { sort, limit: 10 })).toMatchObject({
        index: 'status_created',
        sorted: true,
      });
      expect(await payments.countDocuments(filter)).toBe(
        DOCS.slice(0, 60).filter((doc) => doc.platformId === 'plat' && doc.status === 'COMPLETED').length,
      );
      await store.close();
    });
  });
});

describe('conditions pinning one leading field twice', () => {
  it('walk and count only the values they share', async () => {
    const store = createEmbeddedDocumentStore();
    const c = store.collection('twice');
    await c.createIndex({ keys: { platformId: 1, status: 1, createdAt: -1 } });
    await c.insertOne({ _id: 'a', platformId: 'p', status: 'A', createdAt: '2026-01-01' });
    await c.insertOne({ _id: 'b', platformId: 'p', status: 'B', createdAt: '2026-01-02' });
    const both = { $and: [{ platformId: 'p' }, { status: 'A' }, { status: { $in: ['A', 'B'] } }] };
    const neither = { $and: [{ platformId: 'p' }, { status: 'A' }, { status: 'B' }] };
    expect(await c.countDocuments(both)).toBe(1);
    expect(await c.countDocuments(neither)).toBe(0);
    expect((await c.find(neither, { sort: { createdAt: -1 }, limit: 5 })).length).toBe(0);
    await store.close();
  });
});

describe('counts from field entries', () => {
  it('count an $or of two equalities and a field that must exist without reading documents', async () => {
    const store = createEmbeddedDocumentStore();
    const c = store.collection('sides');
    await c.createIndex({ keys: { platformId: 1, createdAt: -1 } });
    await c.createIndex({ keys: { sender: 1 } });
    await c.createIndex({ keys: { receiver: 1 } });
    await c.createIndex({ keys: { 'quote.id': 1 } });
    const docs = [
      { _id: '1', platformId: 'p', sender: ['x'], receiver: ['y'], quote: { id: 'q1' } },
      { _id: '2', platformId: 'p', sender: ['y'], receiver: ['x'] },
      { _id: '3', platformId: 'p', sender: ['x'], receiver: ['x'], quote: { id: 'q3' } },
      { _id: '4', platformId: 'p', sender: ['z'], receiver: ['y'], quote: { id: null } },
      { _id: '5', platformId: 'o', sender: ['x'], receiver: ['x'] },
    ];
    for (const doc of docs) await c.insertOne(doc);
    const touching = { $and: [{ platformId: 'p' }, { $or: [{ sender: 'x' }, { receiver: 'x' }] }] };
    const quoted = { $and: [{ platformId: 'p' }, { 'quote.id': { $exists: true } }] };
    expect(await c.countDocuments(touching)).toBe(3);
    expect(await c.countDocuments(quoted)).toBe(3);
    expect(await c.countDocuments({ $and: [...quoted.$and, { sender: 'x' }] })).toBe(2);
    for (const filter of [touching, quoted]) {
      expect(await c.explain(filter, { count: true })).toMatchObject({ countedFromIndex: true });
    }
    await store.close();
  });
});

describe('a leading field holding several values (multikey)', () => {
  const sides = [
    { _id: '1', platformId: 'p', sender: ['x'], receiver: ['y'], createdAt: '2026-01-01' },
    { _id: '2', platformId: 'p', sender: ['x', '$x@uma'], receiver: ['x'], createdAt: '2026-01-02' },
    { _id: '3', platformId: 'p', sender: ['y'], receiver: ['x', '$x@uma'], createdAt: '2026-01-03' },
    { _id: '4', platformId: 'o', sender: ['x'], receiver: ['z'], createdAt: '2026-01-04' },
    { _id: '5', platformId: 'p', sender: ['$x@uma'], receiver: ['y'], createdAt: '2026-01-05' },
  ];
  const sort: Sort = { createdAt: -1 };
  const ids = (docs: Doc[]) => docs.map((doc) => doc._id);
  const matching = (filter: Filter) => {
    const query = mingoEngine.compileFilter(filter);
    return sides.filter((doc) => query.test(doc)).map((doc) => doc._id).reverse();
  };
  let store: ReturnType<typeof createEmbeddedDocumentStore>;
  let c: DocumentCollection;

  beforeAll(async () => {
    store = createEmbeddedDocumentStore();
    c = store.collection('sides');
    await c.createIndex({ keys: { platformId: 1, sender: 1, createdAt: -1 }, name: 'sender_created' });
    await c.createIndex({ keys: { platformId: 1, receiver: 1, createdAt: -1 }, name: 'receiver_created' });
    for (const doc of sides) await c.insertOne(doc);
  });
  afterAll(() => store.close());

  it('finds and counts a document under each of its values from the index', async () => {
    for (const value of ['x', '$x@uma', 'y']) {
      const filter = { $and: [{ platformId: 'p' }, { sender: value }] };
      expect(ids(await c.find(filter, { sort, limit: 10 }))).toEqual(matching(filter));
      expect(await c.countDocuments(filter)).toBe(matching(filter).length);
      expect(await c.explain(filter, { sort, limit: 10 })).toMatchObject({ index: 'sender_created', sorted: true });
      expect(await c.explain(filter, { count: true })).toMatchObject({
        index: 'sender_created',
        countedFromIndex: true,
      });
    }
  });

  it('never counts or pages a document twice for two of its values', async () => {
    const filter = { $and: [{ platformId: 'p' }, { sender: { $in: ['x', '$x@uma'] } }] };
    expect(ids(await c.find(filter, { sort, limit: 10 }))).toEqual(['5', '2', '1']);
    expect(await c.countDocuments(filter)).toBe(3);
  });

  it('counts an $or of the two sides as the sum of their counts less the count of both', async () => {
    const filter = { $and: [{ platformId: 'p' }, { $or: [{ sender: 'x' }, { receiver: 'x' }] }] };
    expect(await c.countDocuments(filter)).toBe(3);
    expect(ids(await c.find(filter, { sort, limit: 10 }))).toEqual(['3', '2', '1']);
    expect(await c.explain(filter, { count: true })).toMatchObject({
      index: '$or(sender_created|receiver_created)',
      countedFromIndex: true,
    });
  });

  it('moves a document whose values change, and takes it out when deleted', async () => {
    await c.updateOne({ _id: '2' }, { $set: { sender: ['y', '$y@uma'] } });
    const x = { $and: [{ platformId: 'p' }, { sender: 'x' }] };
    const y = { $and: [{ platformId: 'p' }, { sender: 'y' }] };
    expect(ids(await c.find(x, { sort, limit: 10 }))).toEqual(['1']);
    expect(ids(await c.find(y, { sort, limit: 10 }))).toEqual(['3', '2']);
    expect(await c.countDocuments({ $and: [{ platformId: 'p' }, { sender: '$y@uma' }] })).toBe(1);
    await c.deleteOne({ _id: '2' });
    expect(await c.countDocuments(y)).toBe(1);
    expect(await c.countDocuments({ $and: [{ platformId: 'p' }, { sender: '$y@uma' }] })).toBe(0);
  });
});

describe('a store file of format 4', () => {
  it('rebuilds an index whose multikey documents sat under the irregular lead', async () => {
    await withStoreFile(async (path) => {
      let store = createSqliteDocumentStore({ path });
      let c = store.collection('sides');
      await c.createIndex({ keys: { platformId: 1, sender: 1, createdAt: -1 }, name: 'sender_created' });
      await c.insertOne({ _id: '1', platformId: 'p', sender: ['x', 'u'], createdAt: '2026-01-01' });
      await c.insertOne({ _id: '2', platformId: 'p', sender: ['x'], createdAt: '2026-01-02' });
      await store.close();
      // What format 4 wrote for the first document: one entry under the irregular lead, none under its values.
      const db = new Database(path);
      db.exec(
        'DELETE FROM sort_entries WHERE seq = 1; DROP TABLE sort_counts; DROP TABLE documents_compacted; '
          + 'PRAGMA user_version = 4',
      );
      db.prepare(
        "INSERT INTO sort_entries (collection, idx, lead, sort_key, seq) SELECT collection, idx, '#I', '', 1 "
          + 'FROM sort_entries LIMIT 1',
      ).run();
      db.close();

      store = createSqliteDocumentStore({ path });
      c = store.collection('sides');
      const filter = { $and: [{ platformId: 'p' }, { sender: 'x' }] };
      expect(ids(await c.find(filter, { sort: { createdAt: 1 }, limit: 10 }))).toEqual(['1', '2']);
      expect(await c.explain(filter, { count: true })).toMatchObject({ index: 'sender_created' });
      expect(await c.countDocuments({ $and: [{ platformId: 'p' }, { sender: 'u' }] })).toBe(1);
      await store.close();
    });
  });
  const ids = (docs: Doc[]) => docs.map((doc) => doc._id);
});

describe('running counts of sort entries', () => {
  it('match the entries after inserts, moves, deletes, refused writes, index builds and a reopen', async () => {
    const drift = (store: ReturnType<typeof createSqliteDocumentStore>) => sortCountDrift(store.database);
    await withStoreFile(async (path) => {
      let store = createSqliteDocumentStore({ path });
      let c = store.collection('payments');
      await c.createIndex({ keys: { platformId: 1, status: 1, createdAt: -1 }, name: 'status_created' });
      await c.createIndex({ keys: { refs: 1 }, unique: true, name: 'refs' });
      for (const doc of DOCS.slice(0, 120)) await c.insertOne({ ...doc, refs: [doc._id] });
      // Operations of one group commit, two refused (a duplicate unique key): their entries and counts are undone.
      const results = await Promise.allSettled([
        c.updateMany({ status: 'PENDING' }, { $set: { status: 'COMPLETED' } }),
        c.insertOne({ _id: 'dup', platformId: 'plat', status: 'FAILED', createdAt: '2026-02-01', refs: ['p0001'] }),
        c.updateOne({ _id: 'p0005' }, { $set: { status: 'FAILED', createdAt: '2026-03-01' } }),
        // The first document moves, then the second's key is refused: neither move stays.
        c.updateMany({ _id: { $in: ['p0010', 'p0011'] } }, { $set: { refs: ['same'], status: 'FAILED' } }),
        c.deleteMany({ status: 'REFUNDED' }),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
      await c.createIndex({ keys: { platformId: 1, customerId: 1, createdAt: -1 }, name: 'customer_created' });
      expect(drift(store)).toEqual([]);
      // Read before the group commits (its moves are written just before COMMIT): the count includes its writes.
      const failed = { platformId: 'plat', status: 'FAILED' };
      const before = await c.countDocuments(failed);
      const writing = Promise.all([
        c.insertOne({ _id: 'new1', platformId: 'plat', status: 'FAILED', createdAt: '2026-02-02', refs: ['n1'] }),
        c.updateOne({ _id: 'p0009' }, { $set: { status: 'FAILED' } }),
      ]);
      const during = c.countDocuments(failed);
      expect(await during).toBe(before + 1 + (DOCS[9].status === 'FAILED' ? 0 : 1));
      await writing;
      expect(drift(store)).toEqual([]);
      const filter = { platformId: 'plat', status: 'COMPLETED' };
      const stored = async () => (await c.find({})).filter((doc) => mingoEngine.compileFilter(filter).test(doc));
      expect(await c.countDocuments(filter)).toBe((await stored()).length);
      await store.close();

      store = createSqliteDocumentStore({ path });
      c = store.collection('payments');
      await c.updateMany({ platformId: 'plat', customerId: 'c3' }, { $set: { status: 'COMPLETED' } });
      expect(drift(store)).toEqual([]);
      expect(await c.countDocuments(filter)).toBe((await stored()).length);
      expect(await c.countDocuments({ platformId: 'plat', customerId: 'c3' })).toBe(
        (await c.find({})).filter((doc) => doc.platformId === 'plat' && doc.customerId === 'c3').length,
      );
      await store.close();
    });
  });
});

describe('counts of a date range', () => {
  it('are exact whether the range holds none, few, half, most or all of the entries', async () => {
    const store = createEmbeddedDocumentStore();
    const c = store.collection('payments');
    await c.createIndex({ keys: { platformId: 1, createdAt: -1, _id: -1 } });
    for (const doc of DOCS) await c.insertOne(doc);
    const dates = DOCS.map((doc) => doc.createdAt as string);
    for (const at of [0, 1, 20, 150, 200, 250, 380, 399]) {
      for (const op of ['$lt', '$lte', '$gte', '$gt'] as const) {
        const filter = { platformId: 'plat', createdAt: { [op]: dates[at] } };
        const query = mingoEngine.compileFilter(filter);
        expect({ at, op, n: await c.countDocuments(filter) }).toEqual({
          at,
          op,
          n: DOCS.filter((doc) => query.test(doc)).length,
        });
      }
    }
    const between = { platformId: 'plat', createdAt: { $gte: dates[10], $lt: dates[390] } };
    expect(await c.countDocuments(between)).toBe(
      DOCS.filter((doc) => mingoEngine.compileFilter(between).test(doc)).length,
    );
    expect(await c.explain(between, { count: true })).toMatchObject({ countedFromIndex: true });
    await store.close();
  });
});
