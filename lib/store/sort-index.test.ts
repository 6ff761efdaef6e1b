import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Doc, DocumentCollection, Filter, Sort } from './document-store';
import { createEmbeddedDocumentStore } from './embedded-document-store';
import { mingoEngine } from './mingo-engine';
import { compareSortKeys, sortFields, sortKeysOf } from './sort-documents';
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
    const dir = mkdtempSync(join(tmpdir(), 'sort-upgrade-'));
    const path = join(dir, 'store.sqlite');
    try {
      let store = createSqliteDocumentStore({ path });
      let payments = store.collection('payments');
      await payments.createIndex({ keys: { platformId: 1, status: 1, createdAt: -1 }, name: 'status_created' });
      for (const doc of DOCS.slice(0, 60)) await payments.insertOne(doc);
      await store.close();
      // What format 3 left: no entries under the index's new id (its entries were led by platformId alone).
      const db = new Database(path);
      db.exec('DELETE FROM sort_entries; DROP TABLE sort_builds; PRAGMA user_version = 3');
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
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
