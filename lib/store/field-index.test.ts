import type { Doc, Filter } from './document-store';
import { createEmbeddedDocumentStore } from './embedded-document-store';
import { FieldIndex } from './field-index';
import { mingoEngine } from './mingo-engine';
import { sortDocuments } from './sort-documents';

/**
 * Shapes an index has to get right: missing, null, arrays, nested arrays, arrays of subdocuments, dates, class
 * instances.
 */
const CORPUS: Doc[] = [
  { _id: 'missing' },
  { _id: 'null', status: null, a: null },
  { _id: 'pending', status: 'PENDING', dueAt: 5, a: { b: 'x' } },
  { _id: 'delivering', status: 'DELIVERING', dueAt: 3, a: [{ b: 'x' }, { c: 1 }] },
  { _id: 'done', status: 'DONE', dueAt: 1, a: [1, { b: 'y' }] },
  { _id: 'array', status: ['PENDING', 'DONE'], dueAt: [2, 9], a: { b: ['x', ['y']] } },
  { _id: 'empty', status: [], dueAt: [], a: [] },
  { _id: 'nested', status: [['PENDING']], dueAt: [[1]], a: [[{ b: 'x' }]] },
  { _id: 'number', status: 1, dueAt: '4', a: { b: 1 } },
  { _id: 'bool', status: true, dueAt: new Date(4), a: { b: true } },
  { _id: 'date', status: new Date(0), dueAt: null, a: new Date(0) },
  { _id: 'object', status: { PENDING: 1 }, dueAt: { $lte: 1 }, a: { b: { c: 1 } } },
  { _id: 'buffer', status: Buffer.from('PENDING'), a: { b: Buffer.from('x') } },
  { _id: 'outbox-empty', _outbox: [] },
  { _id: 'outbox', _outbox: [{ id: 'e1' }, { id: 'e2' }] },
  {
    _id: 'long',
    status: Array.from({ length: 40 }, (_, i) => (i === 39 ? 'PENDING' : `S${i}`)),
    a: Array.from({ length: 40 }, (_, i) => ({ b: i === 39 ? 'x' : i })),
  },
];

const FILTERS: Filter[] = [
  { status: 'PENDING' },
  { status: { $eq: 'PENDING' } },
  { status: { $in: ['PENDING', 'DELIVERING'] } },
  { status: { $in: [] } },
  { status: { $in: ['PENDING', null] } },
  { status: null },
  { status: 1 },
  { status: true },
  { status: { $ne: 'PENDING' } },
  { status: { $nin: ['PENDING'] } },
  { status: { $exists: true } },
  { status: { $exists: false } },
  { status: { $in: ['PENDING', 'DELIVERING'] }, dueAt: { $lte: 4 } },
  { dueAt: { $lte: 4 } },
  { dueAt: { $gt: '' } },
  { dueAt: { $gte: new Date(0) } },
  { dueAt: { $lt: null } },
  { dueAt: { $gte: 2, $lte: 5 } },
  { 'a.b': 'x' },
  { 'a.b': 'y' },
  { 'a.b': { $exists: true } },
  { 'a.b': { $in: [1, true] } },
  { '_outbox.id': { $exists: true } },
  { '_outbox.0': { $exists: true } },
  { $or: [{ status: 'PENDING' }, { dueAt: { $lte: 1 } }] },
  { $or: [{ status: 'PENDING' }, { other: 1 }] },
  { $and: [{ status: { $in: ['PENDING', 'DONE'] } }, { 'a.b': 'x' }] },
  { $and: [{ status: 'PENDING' }], $or: [{ _id: 'pending' }, { _id: 'array' }] },
  { _id: { $in: ['pending', 'nope'] }, status: 'PENDING' },
  { status: { $elemMatch: { $eq: 'PENDING' } } },
  { status: /PEND/ },
];

async function collections() {
  const store = createEmbeddedDocumentStore();
  const plain = store.collection('plain');
  const indexed = store.collection('indexed');
  await indexed.createIndex({ keys: { status: 1, dueAt: 1 } });
  await indexed.createIndex({ keys: { 'a.b': 1 } });
  await indexed.createIndex({ keys: { '_outbox.id': 1 }, partialFilter: { '_outbox.id': { $exists: true } } });
  for (const doc of CORPUS) {
    await plain.insertOne(doc);
    await indexed.insertOne(doc);
  }
  return { plain, indexed };
}

describe('field indexes of the embedded store', () => {
  it('answer every filter exactly as a scan does, in the same order', async () => {
    const { plain, indexed } = await collections();
    for (const filter of FILTERS) {
      const scanned = (await plain.find(filter)).map((d) => d._id);
      expect({ filter, ids: (await indexed.find(filter)).map((d) => d._id) }).toEqual({ filter, ids: scanned });
      expect(await indexed.countDocuments(filter)).toBe(scanned.length);
      expect((await indexed.find(filter, { sort: { dueAt: 1 }, limit: 2 })).map((d) => d._id)).toEqual(
        (await plain.find(filter, { sort: { dueAt: 1 }, limit: 2 })).map((d) => d._id),
      );
    }
  });

  it('follow updates, upserts and deletes', async () => {
    const { plain, indexed } = await collections();
    for (const c of [plain, indexed]) {
      await c.updateMany({ status: 'PENDING' }, { $set: { status: 'DONE' } });
      await c.updateOne({ _id: 'missing' }, { $set: { status: 'PENDING', dueAt: 0 } });
      await c.updateOne({ _id: 'up' }, { $set: { status: 'PENDING' } }, { upsert: true });
      await c.findOneAndUpdate({ status: 'DELIVERING' }, { $unset: { status: '' } });
      await c.updateOne({ _id: 'outbox' }, { $pull: { _outbox: { id: { $in: ['e1', 'e2'] } } } });
      await c.updateOne({ _id: 'outbox-empty' }, { $push: { _outbox: { id: 'e3' } } });
      await c.deleteOne({ _id: 'array' });
      await c.insertOne({ _id: 'array', status: 'PENDING' });
    }
    for (const filter of FILTERS) {
      expect({ filter, ids: (await indexed.find(filter)).map((d) => d._id) }).toEqual({
        filter,
        ids: (await plain.find(filter)).map((d) => d._id),
      });
    }
    expect((await indexed.find({ status: 'PENDING' })).map((d) => d._id)).toEqual(['missing', 'up', 'array']);
    expect((await indexed.find({ '_outbox.id': { $exists: true } })).map((d) => d._id)).toEqual(['outbox-empty']);
  });

  it('narrow equality, $in, ranges and $exists to the documents that can match', () => {
    const index = new FieldIndex('status');
    CORPUS.forEach((doc) => index.add(doc._id, doc));
    const keys = (condition: unknown) => [...index.plan(condition)!.keys()].sort();
    // 'nested', 'buffer' and 'long' hold shapes the index does not model: always candidates.
    expect(keys('PENDING')).toEqual(['array', 'buffer', 'long', 'nested', 'pending']);
    expect(keys({ $in: ['DELIVERING', 'DONE'] })).toEqual(['array', 'buffer', 'delivering', 'done', 'long', 'nested']);
    expect(keys({ $exists: true })).toEqual(CORPUS.filter((d) => 'status' in d).map((d) => d._id).sort());
    expect(keys({ $lte: 'Z' })).not.toContain('missing');
    expect(index.plan({ $exists: false })).toBeUndefined();
    expect(index.plan({ $ne: 'PENDING' })).toBeUndefined();
    expect(index.plan(null)).toBeUndefined();
    index.remove('pending', CORPUS[2]);
    expect(keys('PENDING')).toEqual(['array', 'buffer', 'long', 'nested']);
  });
});

/** A page of the documents matching `filter`, in `sort` order. */
interface SortedQuery {
  docs: Doc[];
  filter: Filter;
  sort: Record<string, 1 | -1>;
  skip: number;
  limit: number;
}

describe('sorted queries of the embedded store', () => {
  /** The definition: every match, stably sorted, then the page. */
  const reference = ({ docs, filter, sort, skip, limit }: SortedQuery) => {
    const query = mingoEngine.compileFilter(filter);
    return sortDocuments(docs.filter((d) => query.test(d)), sort).slice(skip, limit ? skip + limit : undefined).map((
      d,
    ) => d._id);
  };

  it('return the first matches in sort order, ties in insertion order, with or without an index', async () => {
    const values = [0, 1, 2, 'a', 'b', null, undefined, [], [3, 1], ['b', 0], new Date(1), true];
    const statuses = ['PENDING', 'DELIVERING', 'DONE', undefined, null, ['PENDING', 'DONE'], [['PENDING']], ['DONE']];
    let seed = 7;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    const docs: Doc[] = Array.from({ length: 300 }, (_, i) => {
      const doc: Doc = { _id: `d${i}` };
      const dueAt = values[random(values.length)];
      const status = statuses[random(statuses.length)];
      if (dueAt !== undefined) doc.dueAt = dueAt;
      if (status !== undefined) doc.status = status;
      return doc;
    });
    const store = createEmbeddedDocumentStore();
    const plain = store.collection('plain');
    const indexed = store.collection('indexed');
    await indexed.createIndex({ keys: { status: 1, dueAt: 1 } });
    for (const doc of docs) {
      await plain.insertOne(doc);
      await indexed.insertOne(doc);
    }
    const filters: Filter[] = [
      {},
      { status: { $in: ['PENDING', 'DELIVERING'] } },
      { status: 'DONE', dueAt: { $lte: 1 } },
      { dueAt: { $gte: 'a' } },
      { $and: [{ status: { $eq: 'PENDING' } }, { dueAt: { $ne: null } }] },
      { status: null },
    ];
    const sorts: Array<Record<string, 1 | -1>> = [{ dueAt: 1 }, { dueAt: -1 }, { status: 1, dueAt: -1 }, { _id: -1 }];
    const compare = async () => {
      const current = await plain.find({});
      for (const filter of filters) {
        for (const sort of sorts) {
          for (const [skip, limit] of [[0, 0], [0, 1], [0, 5], [3, 4]]) {
            const expected = reference({ docs: current, filter, sort, skip, limit });
            for (const c of [plain, indexed]) {
              expect({
                filter,
                sort,
                skip,
                limit,
                ids: (await c.find(filter, { sort, skip, limit })).map((d) => d._id),
              }).toEqual({ filter, sort, skip, limit, ids: expected });
            }
          }
        }
      }
    };
    await compare();
    // Writes move documents between lists and through irregular shapes.
    for (let i = 0; i < 400; i++) {
      const _id = `d${random(docs.length)}`;
      const op = random(4);
      const set = { status: statuses[random(statuses.length)] ?? 'DONE', dueAt: values[random(values.length)] ?? 7 };
      for (const c of [plain, indexed]) {
        if (op === 0) await c.updateOne({ _id }, { $set: set });
        else if (op === 1) await c.updateOne({ _id }, { $unset: { dueAt: '' } });
        else if (op === 2) await c.deleteOne({ _id });
        else await c.updateOne({ _id }, { $set: { status: 'PENDING', dueAt: i } }, { upsert: true });
      }
    }
    await compare();
    for (const c of [plain, indexed]) {
      const claimed = await c.findOneAndUpdate({ status: { $in: ['PENDING', 'DELIVERING'] } }, {
        $set: { status: 'CLAIMED' },
      }, { sort: { dueAt: 1 } });
      const filter = { status: { $in: ['PENDING', 'DELIVERING'] } };
      const due = reference({ docs, filter, sort: { dueAt: 1 }, skip: 0, limit: 1 });
      expect(claimed?._id).toBe(due[0]);
    }
  });
});
