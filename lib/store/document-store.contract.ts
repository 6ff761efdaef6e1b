import { randomBytes } from 'node:crypto';
import { DuplicateKeyError, type Doc, type DocumentCollection, type DocumentStore } from './document-store';

/**
 * The behaviour every DocumentStore adapter must share, as MongoDB documents it. Run against the
 * embedded store always and against a real server when one is configured. Each test uses its own
 * collection, so runs can share a database.
 */
export function describeDocumentStoreContract(
  name: string,
  makeStore: () => Promise<DocumentStore>,
  cleanup?: () => Promise<void>,
): void {
  describe(`DocumentStore contract: ${name}`, () => {
    let store: DocumentStore;

    beforeAll(async () => {
      store = await makeStore();
    });

    afterAll(async () => {
      await store?.close();
      await cleanup?.();
    });

    function fresh<T extends Doc = Doc>(prefix: string): DocumentCollection<T> {
      return store.collection<T>(`${prefix}_${randomBytes(4).toString('hex')}`);
    }

    describe('unique indexes', () => {
      test('a second document with an existing _id is rejected', async () => {
        const c = fresh('ids');
        await c.insertOne({ _id: 'a', v: 1 });
        const error = await duplicateKey(c.insertOne({ _id: 'a', v: 2 }));
        expect(error.index).toBe('_id_');
        expect(error.collection).toBe(c.name);
        expect(await c.find({})).toEqual([{ _id: 'a', v: 1 }]);
      });

      test('an insert that violates a unique index is rejected and stores nothing', async () => {
        const c = fresh('users');
        await c.createIndex({ keys: { email: 1 }, unique: true });
        await c.insertOne({ _id: 'a', email: 'x@example.com' });
        const error = await duplicateKey(c.insertOne({ _id: 'b', email: 'x@example.com' }));
        expect(error.index).toBe('email_1');
        expect(await c.countDocuments({})).toBe(1);
        expect(await c.findOne({ _id: 'b' })).toBeNull();
      });

      test('an update that violates a unique index is rejected and leaves the document unchanged', async () => {
        const c = fresh('users');
        await c.createIndex({ keys: { email: 1 }, unique: true });
        await c.insertOne({ _id: 'a', email: 'x@example.com', name: 'A' });
        await c.insertOne({ _id: 'b', email: 'y@example.com', name: 'B' });
        await duplicateKey(c.updateOne({ _id: 'b' }, { $set: { email: 'x@example.com', name: 'changed' } }));
        await duplicateKey(
          c.findOneAndUpdate({ _id: 'b' }, { $set: { email: 'x@example.com', name: 'changed' } }, {
            returnDocument: 'after',
          }),
        );
        expect(await c.find({}, { sort: { _id: 1 } })).toEqual([
          { _id: 'a', email: 'x@example.com', name: 'A' },
          { _id: 'b', email: 'y@example.com', name: 'B' },
        ]);
        // The rejected updates released nothing: y@ still belongs to b, x@ to a.
        await duplicateKey(c.insertOne({ _id: 'c', email: 'y@example.com' }));
      });

      test('a compound unique index rejects only the same combination', async () => {
        const c = fresh('refs');
        await c.createIndex({ keys: { tenant: 1, ref: 1 }, unique: true });
        await c.insertOne({ _id: '1', tenant: 't1', ref: 'r1' });
        await c.insertOne({ _id: '2', tenant: 't1', ref: 'r2' });
        await c.insertOne({ _id: '3', tenant: 't2', ref: 'r1' });
        const error = await duplicateKey(c.insertOne({ _id: '4', tenant: 't1', ref: 'r1' }));
        expect(error.index).toBe('tenant_1_ref_1');
        expect(await c.countDocuments({})).toBe(3);
      });

      test('a partial unique index only constrains documents matching its filter', async () => {
        const c = fresh('accounts');
        await c.createIndex({
          keys: { owner: 1 },
          unique: true,
          partialFilter: { status: { $eq: 'active' } },
          name: 'one_active_per_owner',
        });
        await c.insertOne({ _id: '1', owner: 'o1', status: 'closed' });
        await c.insertOne({ _id: '2', owner: 'o1', status: 'closed' });
        await c.insertOne({ _id: '3', owner: 'o1', status: 'active' });
        const error = await duplicateKey(c.insertOne({ _id: '4', owner: 'o1', status: 'active' }));
        expect(error.index).toBe('one_active_per_owner');
        await duplicateKey(c.updateOne({ _id: '1' }, { $set: { status: 'active' } }));
        expect(await c.findOne({ _id: '1' })).toEqual({ _id: '1', owner: 'o1', status: 'closed' });
        await c.updateOne({ _id: '3' }, { $set: { status: 'closed' } });
        await c.updateOne({ _id: '1' }, { $set: { status: 'active' } });
        expect(await c.countDocuments({ owner: 'o1', status: 'active' })).toBe(1);
      });

      test('a partial index on field existence lets documents without the field repeat', async () => {
        const c = fresh('requests');
        await c.createIndex({
          keys: { idempotencyKey: 1 },
          unique: true,
          partialFilter: { idempotencyKey: { $exists: true } },
        });
        await c.insertOne({ _id: '1' });
        await c.insertOne({ _id: '2' });
        await c.insertOne({ _id: '3', idempotencyKey: 'k' });
        await duplicateKey(c.insertOne({ _id: '4', idempotencyKey: 'k' }));
      });

      test('a non-partial unique index indexes a missing field as null', async () => {
        const c = fresh('users');
        await c.createIndex({ keys: { email: 1 }, unique: true });
        await c.insertOne({ _id: '1' });
        await duplicateKey(c.insertOne({ _id: '2' }));
        await duplicateKey(c.insertOne({ _id: '3', email: null }));
        await c.insertOne({ _id: '4', email: 'x' });
      });

      test('a unique index on an array field constrains elements across documents, not within one', async () => {
        const c = fresh('tags');
        await c.createIndex({ keys: { tags: 1 }, unique: true });
        await c.insertOne({ _id: '1', tags: ['x', 'y'] });
        await duplicateKey(c.insertOne({ _id: '2', tags: ['y'] }));
        await c.insertOne({ _id: '3', tags: ['z', 'z'] });
        expect(await c.countDocuments({})).toBe(2);
      });

      test('building a unique index over duplicates fails and leaves no index', async () => {
        const c = fresh('users');
        await c.insertOne({ _id: '1', email: 'x' });
        await c.insertOne({ _id: '2', email: 'x' });
        await duplicateKey(c.createIndex({ keys: { email: 1 }, unique: true }));
        await c.insertOne({ _id: '3', email: 'x' });
        expect(await c.countDocuments({ email: 'x' })).toBe(3);
      });

      test('creating the same index twice is a no-op', async () => {
        const c = fresh('users');
        await c.createIndex({ keys: { email: 1 }, unique: true });
        await c.createIndex({ keys: { email: 1 }, unique: true });
        await c.insertOne({ _id: '1', email: 'x' });
        await duplicateKey(c.insertOne({ _id: '2', email: 'x' }));
      });

      test('deleting a document frees its unique keys', async () => {
        const c = fresh('users');
        await c.createIndex({ keys: { email: 1 }, unique: true });
        await c.insertOne({ _id: '1', email: 'x' });
        expect(await c.deleteOne({ email: 'x' })).toEqual({ deletedCount: 1 });
        await c.insertOne({ _id: '2', email: 'x' });
        await c.updateOne({ _id: '2' }, { $set: { email: 'y' } });
        await c.insertOne({ _id: '3', email: 'x' });
        expect(await c.find({}, { sort: { email: 1 } })).toEqual([
          { _id: '3', email: 'x' },
          { _id: '2', email: 'y' },
        ]);
      });
    });

    describe('atomic conditional updates', () => {
      test('50 concurrent guarded debits of 10 against 100 succeed exactly 10 times', async () => {
        const c = fresh('balances');
        await c.insertOne({ _id: 'acct', balance: 100 });
        const results = await Promise.all(
          Array.from({ length: 50 }, () =>
            c.findOneAndUpdate(
              { _id: 'acct', balance: { $gte: 10 } },
              { $inc: { balance: -10 } },
              { returnDocument: 'after' },
            )),
        );
        const succeeded = results.filter((doc): doc is Doc => doc !== null);
        expect(succeeded).toHaveLength(10);
        expect(succeeded.map((doc) => doc.balance).sort((a, b) => Number(a) - Number(b))).toEqual([
          0,
          10,
          20,
          30,
          40,
          50,
          60,
          70,
          80,
          90,
        ]);
        expect(await c.findOne({ _id: 'acct' })).toEqual({ _id: 'acct', balance: 0 });
      });

      test('a transition guarded on state happens once', async () => {
        const c = fresh('quotes');
        await c.insertOne({ _id: 'q', state: 'PENDING' });
        const results = await Promise.all(
          Array.from(
            { length: 5 },
            (_, i) => c.updateOne({ _id: 'q', state: 'PENDING' }, { $set: { state: 'EXECUTED', by: i } }),
          ),
        );
        expect(results.map((r) => r.modifiedCount).reduce((a, b) => a + b, 0)).toBe(1);
        expect(await c.countDocuments({ state: 'EXECUTED' })).toBe(1);
      });
    });

    describe('upsert', () => {
      test('inserts from the filter equalities and $setOnInsert, then only updates', async () => {
        const c = fresh('counters');
        const first = await c.updateOne(
          { _id: 'k1', kind: 'counter' },
          { $inc: { n: 1 }, $setOnInsert: { createdAt: 't0' } },
          { upsert: true },
        );
        expect(first).toEqual({ matchedCount: 0, modifiedCount: 0, upsertedId: 'k1' });
        expect(await c.findOne({ _id: 'k1' })).toEqual({ _id: 'k1', kind: 'counter', n: 1, createdAt: 't0' });

        const second = await c.updateOne(
          { _id: 'k1', kind: 'counter' },
          { $inc: { n: 1 }, $setOnInsert: { createdAt: 't1' } },
          { upsert: true },
        );
        expect(second).toEqual({ matchedCount: 1, modifiedCount: 1 });
        expect(second.upsertedId).toBeUndefined();
        expect(await c.findOne({ _id: 'k1' })).toEqual({ _id: 'k1', kind: 'counter', n: 2, createdAt: 't0' });
      });

      test('an upsert without _id in the filter creates a string _id and seeds dotted equalities', async () => {
        const c = fresh('profiles');
        const result = await c.updateOne(
          { 'owner.id': 'u1', kind: { $eq: 'profile' }, score: { $gt: 0 } },
          { $set: { name: 'Z' } },
          { upsert: true },
        );
        expect(typeof result.upsertedId).toBe('string');
        expect(await c.findOne({ 'owner.id': 'u1' })).toEqual({
          _id: result.upsertedId,
          owner: { id: 'u1' },
          kind: 'profile',
          name: 'Z',
        });
      });

      test('findOneAndUpdate upserts and returns the new document only with returnDocument after', async () => {
        const c = fresh('sessions');
        const after = await c.findOneAndUpdate(
          { _id: 's1' },
          { $set: { state: 'open' }, $setOnInsert: { opens: 1 } },
          { upsert: true, returnDocument: 'after' },
        );
        expect(after).toEqual({ _id: 's1', state: 'open', opens: 1 });
        const before = await c.findOneAndUpdate({ _id: 's2' }, { $set: { state: 'open' } }, { upsert: true });
        expect(before).toBeNull();
        expect(await c.findOne({ _id: 's2' })).toEqual({ _id: 's2', state: 'open' });
      });

      test('an upsert that collides with a unique index inserts nothing', async () => {
        const c = fresh('users');
        await c.createIndex({ keys: { email: 1 }, unique: true });
        await c.insertOne({ _id: 'a', email: 'x' });
        await duplicateKey(c.updateOne({ _id: 'b' }, { $set: { email: 'x' } }, { upsert: true }));
        expect(await c.countDocuments({})).toBe(1);
      });
    });

    describe('find', () => {
      async function seedRanks(c: DocumentCollection): Promise<void> {
        await c.insertOne({ _id: 'a', group: 'b', rank: 1 });
        await c.insertOne({ _id: 'b', group: 'a', rank: 3 });
        await c.insertOne({ _id: 'c', group: 'a', rank: 1 });
        await c.insertOne({ _id: 'd', group: 'b', rank: 5 });
        await c.insertOne({ _id: 'e', group: 'a', rank: 2 });
        await c.insertOne({ _id: 'f', rank: 9 });
        await c.insertOne({ _id: 'g', group: 'c', rank: 0 });
      }

      test('paginates with a multi-key sort, skip and limit', async () => {
        const c = fresh('ranks');
        await seedRanks(c);
        const page = async (skip: number) =>
          (await c.find({}, { sort: { group: 1, rank: -1 }, skip, limit: 3 })).map((doc) => doc._id);
        expect(await page(0)).toEqual(['f', 'b', 'e']);
        expect(await page(3)).toEqual(['c', 'd', 'a']);
        expect(await page(6)).toEqual(['g']);
        expect(await page(9)).toEqual([]);
        const reversed = await c.find({}, { sort: { group: -1, rank: 1 } });
        expect(reversed.map((doc) => doc._id)).toEqual(['g', 'a', 'd', 'c', 'e', 'b', 'f']);
        const filtered = await c.find({ group: 'a' }, { sort: { rank: 1 }, limit: 2 });
        expect(filtered).toEqual([
          { _id: 'c', group: 'a', rank: 1 },
          { _id: 'e', group: 'a', rank: 2 },
        ]);
      });

      test('sorts by BSON type order, then binary string order', async () => {
        const c = fresh('mixed');
        const values = ['banana', 10, 'Apple', null, 9, 'apple', '10', 'Banana'];
        for (const [i, v] of values.entries()) await c.insertOne({ _id: String(i), v });
        const sorted = await c.find({}, { sort: { v: 1 } });
        expect(sorted.map((doc) => doc.v)).toEqual([null, 9, 10, '10', 'Apple', 'Banana', 'apple', 'banana']);
        const descending = await c.find({ v: { $type: 'string' } }, { sort: { v: -1 } });
        expect(descending.map((doc) => doc.v)).toEqual(['banana', 'apple', 'Banana', 'Apple', '10']);
      });

      test(
        'comparisons meet array elements one by one, only values '
          + 'of their own type, and missing fields under negations',
        async () => {
          const c = fresh('elements');
          await c.insertOne({ _id: 'list', v: [0, 10, 'x'], tags: ['p', 'q'], at: new Date(0) });
          await c.insertOne({ _id: 'empty', v: [], tags: [] });
          await c.insertOne({ _id: 'null', v: null, tags: null });
          await c.insertOne({ _id: 'text', v: '5', tags: 'p' });
          await c.insertOne({ _id: 'nested', v: { w: 5 }, tags: [['p']] });
          await c.insertOne({ _id: 'missing' });
          const ids = async (filter: Record<string, unknown>) =>
            (await c.find(filter, { sort: { _id: 1 } })).map((doc) => doc._id);
          expect(await ids({ v: { $gt: 1, $lt: 5 } })).toEqual(['list']);
          expect(await ids({ v: { $gte: '5' } })).toEqual(['list', 'text']);
          expect(await ids({ v: { $lte: 5 } })).toEqual(['list']);
          expect(await ids({ 'v.w': { $gte: 5 } })).toEqual(['nested']);
          expect(await ids({ tags: { $ne: 'p' } })).toEqual(['empty', 'missing', 'nested', 'null']);
          expect(await ids({ tags: { $nin: ['q', 'p'] } })).toEqual(['empty', 'missing', 'nested', 'null']);
          expect(await ids({ tags: { $in: ['q'] } })).toEqual(['list']);
          expect(await ids({ 'tags.1': { $exists: true } })).toEqual(['list']);
          expect(await ids({ 'tags.0': 'p' })).toEqual(['list', 'nested']);
          expect(await ids({ 'v.1': { $gt: 5 } })).toEqual(['list']);
          expect(
            await ids({ v: { $exists: true }, $or: [{ 'tags.0': { $exists: false } }, { at: { $exists: true } }] }),
          )
            .toEqual(['empty', 'list', 'null', 'text']);
          expect(await ids({ at: { $gte: '' } })).toEqual([]);
        },
      );

      test('matches comparison, set, existence and logical operators', async () => {
        const c = fresh('ops');
        for (let n = 1; n <= 5; n++) {
          await c.insertOne({ _id: `n${n}`, n, ...(n % 2 === 0 ? { even: true } : {}) });
        }
        expect(await c.countDocuments({ n: { $gt: 2 } })).toBe(3);
        expect(await c.countDocuments({ n: { $gte: 2, $lt: 4 } })).toBe(2);
        expect(await c.countDocuments({ n: { $lte: 1 } })).toBe(1);
        expect(await c.countDocuments({ n: { $ne: 3 } })).toBe(4);
        expect(await c.countDocuments({ n: { $in: [1, 5, 7] } })).toBe(2);
        expect(await c.countDocuments({ n: { $nin: [1, 5] } })).toBe(3);
        expect(await c.countDocuments({ even: { $exists: true } })).toBe(2);
        expect(await c.countDocuments({ even: { $exists: false } })).toBe(3);
        expect(await c.countDocuments({ even: { $ne: true } })).toBe(3);
        expect(await c.countDocuments({ $or: [{ n: 1 }, { even: true }] })).toBe(3);
        expect(await c.countDocuments({ $and: [{ n: { $gt: 1 } }, { even: true }] })).toBe(2);
        expect(await c.countDocuments({ _id: { $in: ['n1', 'n3', 'zz'] } })).toBe(2);
        expect(await c.find({ _id: 'n2', n: 3 })).toEqual([]);
        expect(await c.find({ _id: { $eq: 'n2' } })).toEqual([{ _id: 'n2', n: 2, even: true }]);
      });
    });

    describe('explain', () => {
      test('names the index a filter and sort use, and a scan where no index applies', async () => {
        const c = fresh('plans');
        await c.createIndex({ keys: { group: 1, rank: -1 }, name: 'group_rank' });
        for (let i = 0; i < 20; i++) await c.insertOne({ _id: `d${i}`, group: `g${i % 4}`, rank: i, other: i % 3 });
        const indexed = await c.explain({ group: 'g1' }, { sort: { rank: -1 }, limit: 3 });
        expect(indexed).toMatchObject({
          source: 'index',
          index: 'group_rank',
          sorted: true,
          served: ['group'],
          filtered: [],
        });
        const scanned = await c.explain({ other: 1 }, { sort: { rank: -1 }, limit: 3 });
        expect(scanned).toMatchObject({ source: 'scan', served: [], filtered: ['other'] });
        expect(await c.find({ group: 'g1' }, { sort: { rank: -1 }, limit: 3 })).toEqual([
          { _id: 'd17', group: 'g1', rank: 17, other: 2 },
          { _id: 'd13', group: 'g1', rank: 13, other: 1 },
          { _id: 'd9', group: 'g1', rank: 9, other: 0 },
        ]);
      });
    });

    describe('projection', () => {
      test('returns _id and the named top-level fields, skipping absent ones, as copies', async () => {
        const c = fresh('projection');
        await c.insertOne({ _id: 'p1', kind: 'a', available: 5, markers: ['m1', 'm2'], nested: { list: [1] } });
        await c.insertOne({ _id: 'p2', kind: 'a', available: 7 });
        expect(await c.findOne({ _id: 'p1' }, { projection: { available: 1, nested: 1, missing: 1 } })).toEqual({
          _id: 'p1',
          available: 5,
          nested: { list: [1] },
        });
        const found = await c.find({ kind: 'a' }, { sort: { available: -1 }, projection: { available: 1 } });
        expect(found).toEqual([{ _id: 'p2', available: 7 }, { _id: 'p1', available: 5 }]);
        const read = await c.findOne({ _id: 'p1' }, { projection: { nested: 1 } });
        (read?.nested as { list: number[] }).list.push(2);
        expect(await c.findOne({ _id: 'p1' })).toEqual({
          _id: 'p1',
          kind: 'a',
          available: 5,
          markers: ['m1', 'm2'],
          nested: { list: [1] },
        });
      });
    });

    describe('update operators', () => {
      test('$push with $each, $pull with a value and a condition, $addToSet', async () => {
        const c = fresh('lists');
        await c.insertOne({ _id: 'l', tags: ['a'], items: [{ sku: 's1', qty: 1 }] });
        await c.updateOne({ _id: 'l' }, { $push: { tags: { $each: ['b', 'c'] }, items: { sku: 's2', qty: 3 } } });
        expect(await c.findOne({ _id: 'l' })).toEqual({
          _id: 'l',
          tags: ['a', 'b', 'c'],
          items: [
            { sku: 's1', qty: 1 },
            { sku: 's2', qty: 3 },
          ],
        });
        await c.updateOne({ _id: 'l' }, { $pull: { tags: 'b', items: { qty: { $lte: 1 } } } });
        expect(await c.findOne({ _id: 'l' })).toEqual({ _id: 'l', tags: ['a', 'c'], items: [{ sku: 's2', qty: 3 }] });
        expect(await c.updateOne({ _id: 'l' }, { $addToSet: { tags: 'a' } })).toEqual({
          matchedCount: 1,
          modifiedCount: 0,
        });
        await c.updateOne({ _id: 'l' }, { $addToSet: { tags: { $each: ['c', 'd'] } } });
        expect((await c.findOne({ _id: 'l' }))?.tags).toEqual(['a', 'c', 'd']);
      });

      test('$set and $inc on dotted paths create nested fields; $unset removes them', async () => {
        const c = fresh('nested');
        await c.insertOne({
          _id: 'u',
          profile: { email: 'a@x', address: { city: 'Paris' } },
          items: [{ sku: 's1', qty: 2 }, { sku: 's2', qty: 5 }],
        });
        expect(await c.countDocuments({ 'profile.address.city': 'Paris' })).toBe(1);
        expect(await c.countDocuments({ 'items.sku': 's2' })).toBe(1);
        expect(await c.countDocuments({ 'items.qty': { $gt: 4 } })).toBe(1);
        expect(await c.countDocuments({ items: { $elemMatch: { sku: 's1', qty: { $gte: 2 } } } })).toBe(1);
        expect(await c.countDocuments({ items: { $elemMatch: { sku: 's1', qty: { $gte: 3 } } } })).toBe(0);
        await c.updateOne(
          { _id: 'u' },
          { $set: { 'profile.address.zip': '75001' }, $inc: { 'stats.visits': 2 }, $unset: { 'profile.email': '' } },
        );
        expect(await c.findOne({ 'stats.visits': 2 })).toEqual({
          _id: 'u',
          profile: { address: { city: 'Paris', zip: '75001' } },
          items: [{ sku: 's1', qty: 2 }, { sku: 's2', qty: 5 }],
          stats: { visits: 2 },
        });
      });

      test('$min and $max change only when the new value is beyond the old one', async () => {
        const c = fresh('bounds');
        await c.insertOne({ _id: 'b', lo: 5, hi: 5 });
        expect(await c.updateOne({ _id: 'b' }, { $min: { lo: 3 }, $max: { hi: 9 } })).toEqual({
          matchedCount: 1,
          modifiedCount: 1,
        });
        expect(await c.updateOne({ _id: 'b' }, { $min: { lo: 4 }, $max: { hi: 8 } })).toEqual({
          matchedCount: 1,
          modifiedCount: 0,
        });
        expect(await c.findOne({ _id: 'b' })).toEqual({ _id: 'b', lo: 3, hi: 9 });
      });

      test('updateMany counts matched and modified documents', async () => {
        const c = fresh('flags');
        await c.insertOne({ _id: '1', status: 'a' });
        await c.insertOne({ _id: '2', status: 'a', flag: true });
        await c.insertOne({ _id: '3', status: 'a' });
        await c.insertOne({ _id: '4', status: 'b' });
        expect(await c.updateMany({ status: 'a' }, { $set: { flag: true } })).toEqual({
          matchedCount: 3,
          modifiedCount: 2,
        });
        expect(await c.countDocuments({ flag: true })).toBe(3);
        expect(await c.updateMany({ status: 'zz' }, { $set: { flag: true } })).toEqual({
          matchedCount: 0,
          modifiedCount: 0,
        });
      });

      test('invalid updates are rejected and change nothing', async () => {
        const c = fresh('invalid');
        await c.insertOne({ _id: 'x', name: 'n', count: 1 });
        await expect(c.updateOne({ _id: 'x' }, { name: 'replaced' })).rejects.toThrow();
        await expect(c.updateOne({ _id: 'x' }, { $set: { _id: 'y' } })).rejects.toThrow();
        await expect(c.updateOne({ _id: 'x' }, { $inc: { name: 1 } })).rejects.toThrow();
        await expect(c.updateOne({ _id: 'x' }, { $set: { count: 2 }, $inc: { count: 1 } })).rejects.toThrow();
        expect(await c.find({})).toEqual([{ _id: 'x', name: 'n', count: 1 }]);
      });
    });

    describe('findOneAndUpdate', () => {
      test('returns the document before the update by default and after on request', async () => {
        const c = fresh('versions');
        await c.insertOne({ _id: 'r', v: 1 });
        expect(await c.findOneAndUpdate({ _id: 'r' }, { $inc: { v: 1 } })).toEqual({ _id: 'r', v: 1 });
        expect(await c.findOneAndUpdate({ _id: 'r' }, { $inc: { v: 1 } }, { returnDocument: 'before' })).toEqual({
          _id: 'r',
          v: 2,
        });
        expect(await c.findOneAndUpdate({ _id: 'r' }, { $inc: { v: 1 } }, { returnDocument: 'after' })).toEqual({
          _id: 'r',
          v: 4,
        });
        expect(await c.findOneAndUpdate({ _id: 'missing' }, { $inc: { v: 1 } })).toBeNull();
      });

      test('updates the first match in the given sort order', async () => {
        const c = fresh('queue');
        await c.insertOne({ _id: 'j1', state: 'ready', priority: 1 });
        await c.insertOne({ _id: 'j2', state: 'ready', priority: 3 });
        await c.insertOne({ _id: 'j3', state: 'done', priority: 9 });
        await c.insertOne({ _id: 'j4', state: 'ready', priority: 2 });
        const taken = await c.findOneAndUpdate(
          { state: 'ready' },
          { $set: { state: 'taken' } },
          { sort: { priority: -1 }, returnDocument: 'after' },
        );
        expect(taken).toEqual({ _id: 'j2', state: 'taken', priority: 3 });
        const next = await c.findOneAndUpdate({ state: 'ready' }, { $set: { state: 'taken' } }, {
          sort: { priority: 1 },
        });
        expect(next).toEqual({ _id: 'j1', state: 'ready', priority: 1 });
      });
    });

    describe('delete', () => {
      test('deleteOne removes one match and deleteMany the rest', async () => {
        const c = fresh('deletes');
        for (const id of ['1', '2', '3']) await c.insertOne({ _id: id, type: 'x' });
        await c.insertOne({ _id: '4', type: 'y' });
        expect(await c.deleteOne({ type: 'x' })).toEqual({ deletedCount: 1 });
        expect(await c.deleteMany({ type: 'x' })).toEqual({ deletedCount: 2 });
        expect(await c.deleteOne({ type: 'x' })).toEqual({ deletedCount: 0 });
        expect(await c.deleteMany({ type: 'x' })).toEqual({ deletedCount: 0 });
        expect(await c.find({})).toEqual([{ _id: '4', type: 'y' }]);
      });
    });

    describe('copies', () => {
      test('no reads or writes alias stored state', async () => {
        const c = fresh('aliasing');
        const original = { _id: 'x', nested: { list: [1] } };
        await c.insertOne(original);
        original.nested.list.push(2);
        const read = await c.findOne({ _id: 'x' });
        (read?.nested as { list: number[] }).list.push(3);
        const [found] = await c.find({});
        (found.nested as { list: number[] }).list.push(4);
        const value = { list: [5] };
        const returned = await c.findOneAndUpdate({ _id: 'x' }, { $set: { other: value } }, {
          returnDocument: 'after',
        });
        value.list.push(6);
        (returned?.other as { list: number[] }).list.push(7);
        expect(await c.findOne({ _id: 'x' })).toEqual({ _id: 'x', nested: { list: [1] }, other: { list: [5] } });
      });

      test('the document before an update is handed out whole and apart from the stored one', async () => {
        const c = fresh('before');
        await c.insertOne({ _id: 'b', kept: { list: [1], at: new Date(5) }, log: ['a'], moved: { n: 1 } });
        const before = await c.findOneAndUpdate({ _id: 'b' }, {
          $push: { log: 'b' },
          $rename: { 'moved.n': 'renamed' },
        });
        expect(before).toEqual({ _id: 'b', kept: { list: [1], at: new Date(5) }, log: ['a'], moved: { n: 1 } });
        (before?.kept as { list: number[] }).list.push(2);
        (before?.kept as { at: Date }).at.setTime(9);
        (before?.log as string[]).push('z');
        const unchanged = await c.findOneAndUpdate({ _id: 'b' }, { $set: { 'kept.list': [1] } });
        (unchanged?.kept as { list: number[] }).list.push(3);
        expect(await c.findOne({ _id: 'b' })).toEqual({
          _id: 'b',
          kept: { list: [1], at: new Date(5) },
          log: ['a', 'b'],
          moved: {},
          renamed: 1,
        });
      });

      test('indexes follow updates that leave their fields alone and those that move onto a kept key', async () => {
        const c = fresh('kept');
        await c.createIndex({ keys: { code: 1 }, unique: true, partialFilter: { live: true } });
        await c.createIndex({ keys: { group: 1, rank: 1 } });
        await c.insertOne({ _id: '1', code: 'a', live: true, group: 'g', rank: 2, n: 0 });
        await c.insertOne({ _id: '2', code: 'b', live: true, group: 'g', rank: 1, n: 0 });
        await c.updateMany({}, { $inc: { n: 1 } });
        await duplicateKey(c.insertOne({ _id: '3', code: 'a', live: true }));
        await duplicateKey(c.updateMany({ n: 1 }, { $set: { code: 'a', other: 1 } }));
        await c.updateOne({ _id: '1' }, { $set: { live: false } });
        await c.updateOne({ _id: '2' }, { $set: { code: 'a' } });
        await duplicateKey(c.updateOne({ _id: '1' }, { $set: { live: true } }));
        await c.updateOne({ _id: '1' }, { $set: { rank: 0 } });
        expect((await c.find({ group: 'g' }, { sort: { rank: 1 }, limit: 1 })).map((doc) => doc._id)).toEqual(['1']);
        expect(await c.find({ code: 'a', live: true })).toEqual([{
          _id: '2',
          code: 'a',
          live: true,
          group: 'g',
          rank: 1,
          n: 1,
        }]);
      });

      test('an update refused by a unique index leaves the fields it touched and the rest as they were', async () => {
        const c = fresh('refused');
        await c.createIndex({ keys: { 'tag.name': 1 }, unique: true });
        await c.insertOne({ _id: '1', tag: { name: 'a' }, items: [{ n: 1 }], other: { deep: [[1]] } });
        await c.insertOne({ _id: '2', tag: { name: 'b' }, items: [{ n: 2 }], other: { deep: [[2]] } });
        await duplicateKey(
          c.updateOne({ _id: '2' }, { $set: { 'tag.name': 'a', 'other.deep.0.0': 7 }, $push: { items: { n: 9 } } }),
        );
        expect(await c.find({})).toEqual([
          { _id: '1', tag: { name: 'a' }, items: [{ n: 1 }], other: { deep: [[1]] } },
          { _id: '2', tag: { name: 'b' }, items: [{ n: 2 }], other: { deep: [[2]] } },
        ]);
        await c.updateMany({}, { $push: { items: { n: 0 } } });
        await c.updateOne({ _id: '1' }, { $inc: { 'items.0.n': 10 } });
        expect(await c.find({}, { sort: { _id: 1 } })).toEqual([
          { _id: '1', tag: { name: 'a' }, items: [{ n: 11 }, { n: 0 }], other: { deep: [[1]] } },
          { _id: '2', tag: { name: 'b' }, items: [{ n: 2 }, { n: 0 }], other: { deep: [[2]] } },
        ]);
      });
    });

    test('ping answers true while the store is open', async () => {
      expect(await store.ping()).toBe(true);
    });
  });
}

async function duplicateKey(operation: Promise<unknown>): Promise<DuplicateKeyError> {
  const error = await operation.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DuplicateKeyError);
  return error as DuplicateKeyError;
}
