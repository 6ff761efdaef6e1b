import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { BSON } from 'bson';
import { AppError } from '../errors';
import { describeDocumentStoreContract } from './document-store.contract';
import { DuplicateKeyError } from './document-store';
import { createEmbeddedDocumentStore } from './embedded-document-store';
import { serializeValue } from './index-keys';
import { createSqliteDocumentStore } from './sqlite-document-store';
import { CHECKPOINT_PAGES } from './sqlite-checkpointer';
import { COMPRESS_FROM_BYTES } from './sqlite-statements';
import { DataDirectoryInUseError, LATEST_STORE_VERSION } from './sqlite-schema';
import { releaseVersion } from '../runtime/release';

const dirs: string[] = [];
const freshPath = () => {
  const dir = mkdtempSync(join(tmpdir(), 'sqlite-store-'));
  dirs.push(dir);
  return join(dir, 'service.sqlite');
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/**
 * A file of format 1 (the journal layout), as the upgrade reads it: one table of every
 * document as plain BSON under its serialized `_id`, in insertion order, no index entries.
 */
function writeJournalFile(path: string, collection: string, docs: Array<Record<string, unknown>>): void {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec(
    'CREATE TABLE documents (collection TEXT NOT NULL, key TEXT '
      + 'NOT NULL, body BLOB NOT NULL, PRIMARY KEY (collection, key))',
  );
  const insert = db.prepare('INSERT INTO documents (collection, key, body) VALUES (?, ?, ?)');
  for (const doc of docs) insert.run(collection, serializeValue(doc._id), BSON.serialize(doc));
  db.pragma('user_version = 1');
  db.close();
}

describeDocumentStoreContract('SQLite engine', async () => createSqliteDocumentStore({ path: freshPath() }));
describeDocumentStoreContract(
  'SQLite engine, no cache',
  async () => createSqliteDocumentStore({ path: freshPath(), cacheDocuments: 0 }),
);

describe('SQLite engine across a reopen', () => {
  it('serves exactly what was acknowledged, in insertion order, with unique indexes, none read at open', async () => {
    const path = freshPath();
    const first = createSqliteDocumentStore({ path });
    const accounts = first.collection('accounts');
    await accounts.createIndex({ keys: { email: 1 }, unique: true });
    await accounts.insertOne({
      _id: 'b',
      email: 'b@example.com',
      balance: 10,
      openedAt: new Date('2026-01-01T00:00:00Z'),
      key: Buffer.from('k'),
    });
    await accounts.insertOne({ _id: 'a', email: 'a@example.com', balance: 5 });
    await accounts.insertOne({ _id: 'gone', email: 'gone@example.com', balance: 0 });
    await accounts.updateOne({ _id: 'b' }, { $inc: { balance: 7 } });
    await accounts.deleteOne({ _id: 'gone' });
    await expect(accounts.insertOne({ _id: 'c', email: 'a@example.com' })).rejects.toThrow(DuplicateKeyError);
    await first.close();

    const second = createSqliteDocumentStore({ path });
    const reopened = second.collection('accounts');
    // The index is in the file: enforced before the service declares it again.
    await expect(reopened.insertOne({ _id: 'd', email: 'b@example.com' })).rejects.toMatchObject({ index: 'email_1' });
    await reopened.createIndex({ keys: { email: 1 }, unique: true });
    const docs = await reopened.find({});
    expect(docs.map((d) => d._id)).toEqual(['b', 'a']);
    expect(docs[0]).toEqual({
      _id: 'b',
      email: 'b@example.com',
      balance: 17,
      openedAt: new Date('2026-01-01T00:00:00Z'),
      key: Buffer.from('k'),
    });
    expect(Buffer.isBuffer(docs[0].key)).toBe(true);
    expect(await reopened.findOne({ email: 'a@example.com' })).toEqual({
      _id: 'a',
      email: 'a@example.com',
      balance: 5,
    });
    expect(await reopened.countDocuments({})).toBe(2);
    await second.close();
  });

  it('refuses a second opener of the same file while the first holds it', async () => {
    const path = freshPath();
    const first = createSqliteDocumentStore({ path });
    await first.collection('x').insertOne({ _id: '1' });
    expect(() => createSqliteDocumentStore({ path })).toThrow(DataDirectoryInUseError);
    await first.close();
  });
});

describe('WAL checkpoints on their own thread', () => {
  const until = async (condition: () => boolean) => {
    for (const deadline = Date.now() + 20_000; !condition();) {
      if (Date.now() > deadline) throw new Error('condition not met within 20 s');
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  it('copies committed pages into the file long before the WAL fills, and a close leaves no WAL behind', async () => {
    const path = freshPath();
    const store = createSqliteDocumentStore({ path });
    const items = store.collection('items');
    await items.insertOne({ _id: 'first' });
    const sizeAtStart = statSync(path).size;
    // About 2 × CHECKPOINT_PAGES pages: far below the size at which the store's own connection would checkpoint.
    const documents = Math.ceil((2 * CHECKPOINT_PAGES * 4_096) / 4_000);
    for (let batch = 0; batch < documents / 100; batch++) {
      await Promise.all(
        Array.from(
          { length: 100 },
          (_, i) => items.insertOne({ _id: `i${batch * 100 + i}`, pad: randomBytes(3_000).toString('base64') }),
        ),
      );
    }
    expect(existsSync(`${path}-wal`)).toBe(true);
    await until(() => statSync(path).size > sizeAtStart + CHECKPOINT_PAGES * 4_096);
    await items.updateOne({ _id: 'i7' }, { $set: { seen: true } });
    await store.close();
    expect(existsSync(`${path}-wal`)).toBe(false);
    const reopened = createSqliteDocumentStore({ path });
    expect(await reopened.collection('items').countDocuments({})).toBe(Math.ceil(documents / 100) * 100 + 1);
    expect(await reopened.collection('items').findOne({ _id: 'i7' })).toMatchObject({ seen: true });
    await reopened.close();
  });

  it('closes every store of the thread, the checkpoint thread with them, whatever the order', async () => {
    const stores = [freshPath(), freshPath()].map((path) => ({ path, store: createSqliteDocumentStore({ path }) }));
    for (const { store } of stores) {
      for (let i = 0; i < 20; i++) await store.collection('x').insertOne({ _id: `${i}`, pad: 'p'.repeat(2_000) });
    }
    await new Promise((r) => setTimeout(r, 400));
    await Promise.all([stores[1].store.close(), stores[0].store.close(), stores[0].store.close()]);
    for (const { path } of stores) expect(existsSync(`${path}-wal`)).toBe(false);
  });
});

describe('versioned format', () => {
  it('upgrades a journal file (format 1) once, in place: its documents, then its indexes when declared', async () => {
    const path = freshPath();
    writeJournalFile(
      path,
      'customers',
      Array.from(
        { length: 30 },
        (_, i) => ({ _id: `c${i}`, platformId: `p${i % 3}`, email: `e${i}`, createdAt: new Date(1_000 + i) }),
      ),
    );

    const upgraded = createSqliteDocumentStore({ path });
    expect(upgraded.database.pragma('user_version', { simple: true })).toBe(LATEST_STORE_VERSION);
    const again = upgraded.collection('customers');
    await again.createIndex({ keys: { platformId: 1, email: 1 }, unique: true });
    await again.createIndex({ keys: { platformId: 1, createdAt: -1 } });
    await expect(again.insertOne({ _id: 'dup', platformId: 'p1', email: 'e1' })).rejects.toThrow(DuplicateKeyError);
    const newest = await again.find({ platformId: 'p2' }, { sort: { createdAt: -1 }, limit: 2 });
    expect(newest.map((d) => d._id)).toEqual(['c29', 'c26']);
    expect((await again.find({}, { limit: 3 })).map((d) => d._id)).toEqual(['c0', 'c1', 'c2']);
    await upgraded.close();

    const reopened = createSqliteDocumentStore({ path });
    expect(await reopened.collection('customers').countDocuments({})).toBe(30);
    await reopened.close();
  });

  it('deflates a large body once its document leaves the cache (format 3); reads either form', async () => {
    const path = freshPath();
    const large = {
      _id: 'large',
      platformId: 'p1',
      notes: Array.from({ length: 60 }, (_, i) => `posting marker ${i} of a busy balance`),
      at: new Date(5_000),
    };
    writeJournalFile(path, 'balances', [large]);

    const upgraded = createSqliteDocumentStore({ path, cacheDocuments: 2 });
    const balances = upgraded.collection('balances');
    const body = (id: string) =>
      upgraded.database.prepare("SELECT body FROM documents WHERE collection = 'balances' AND key LIKE ?")
        .pluck().get(`%${id}%`) as Buffer;
    const compressed = (id: string) => body(id).readInt32LE(0) === 0;
    expect(compressed('large')).toBe(false); // written by the journal: plain BSON, read as it is
    expect(await balances.findOne({ _id: 'large' })).toEqual(large);
    await balances.updateOne({ _id: 'large' }, { $push: { notes: 'one more' } });
    await balances.updateOne({ _id: 'large' }, { $push: { notes: 'and one more' } });
    expect(compressed('large')).toBe(false); // rewritten while cached: plain
    await balances.insertOne({ ...large, _id: 'other' });
    expect(compressed('large')).toBe(false); // still one of the two cached
    await balances.insertOne({ _id: 'small', platformId: 'p1' });
    // `large` left the cache with this insert, and the commit of the insert deflated it.
    expect(compressed('large')).toBe(true);
    await balances.insertOne({ _id: 'third', platformId: 'p1' });
    expect(body('large').length).toBeLessThan(COMPRESS_FROM_BYTES);
    expect(compressed('other')).toBe(true); // let go by the third insert
    expect(compressed('small')).toBe(false); // too small to be worth it
    await upgraded.close();

    const reopened = createSqliteDocumentStore({ path, cacheDocuments: 0 });
    const notes = [...large.notes, 'one more', 'and one more'];
    expect(await reopened.collection('balances').find({ platformId: 'p1' })).toEqual([
      { ...large, notes },
      { ...large, _id: 'other' },
      { _id: 'small', platformId: 'p1' },
      { _id: 'third', platformId: 'p1' },
    ]);
    // Without a cache a large body is deflated by the commit of its own write; a deleted one is let go.
    await reopened.collection('balances').updateOne({ _id: 'other' }, { $set: { at: new Date(6_000) } });
    const stored = reopened.database.prepare("SELECT body FROM documents WHERE key LIKE '%other%'").pluck();
    expect((stored.get() as Buffer).readInt32LE(0)).toBe(0);
    await reopened.collection('balances').deleteOne({ _id: 'large' });
    expect(await reopened.collection('balances').countDocuments({})).toBe(3);
    await reopened.close();
  });

  it('refuses a file of a newer format and leaves it unchanged', async () => {
    const path = freshPath();
    const store = createSqliteDocumentStore({ path });
    await store.collection('x').insertOne({ _id: '1' });
    expect(store.database.prepare('SELECT release, format FROM store_writer').get()).toEqual({
      release: releaseVersion(),
      format: LATEST_STORE_VERSION,
    });
    store.database.pragma(`user_version = ${LATEST_STORE_VERSION + 1}`);
    store.database.prepare('UPDATE store_writer SET release = ?, format = ?').run('9.4.0', LATEST_STORE_VERSION + 1);
    await store.close();
    expect(() => createSqliteDocumentStore({ path })).toThrow(
      new RegExp(
        `was written by a newer release, grid-payments 9\\.4\\.0, in store format ${LATEST_STORE_VERSION + 1}; `
          + `this release \\(grid-payments ${
            releaseVersion().replaceAll('.', '\\.')
          }\\) reads store formats up to ${LATEST_STORE_VERSION}\\. Nothing was changed`,
      ),
    );
    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_STORE_VERSION + 1);
    expect(db.prepare('SELECT count(*) FROM documents').pluck().get()).toBe(1);
    db.close();
  });
});

describe('group commit', () => {
  it('commits concurrent writes together, acknowledges none before the commit, refuses only the failure', async () => {
    const path = freshPath();
    const store = createSqliteDocumentStore({ path });
    const items = store.collection('items');
    await items.createIndex({ keys: { code: 1 }, unique: true });
    let acknowledged = 0;
    const writes = Array.from(
      { length: 20 },
      (_, i) =>
        items.insertOne({ _id: `i${i}`, code: i === 7 ? 'c3' : `c${i}` }).then(() => {
          acknowledged += 1;
        }),
    );
    expect(store.database.inTransaction).toBe(true);
    await Promise.resolve();
    expect(acknowledged).toBe(0);
    const results = await Promise.allSettled(writes);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1);
    expect((results[7] as PromiseRejectedResult).reason).toBeInstanceOf(DuplicateKeyError);
    expect(store.database.inTransaction).toBe(false);
    await store.close();
    const reopened = createSqliteDocumentStore({ path });
    expect(await reopened.collection('items').countDocuments({})).toBe(19);
    await reopened.close();
  });

  it('a full disk refuses the group with STORAGE_FULL, ping says so, and it recovers without a reopen', async () => {
    const store = createSqliteDocumentStore({ path: freshPath() });
    const things = store.collection('things');
    // Random bytes: a body that deflates to nothing would still fit.
    const big = (id: string) => ({ _id: id, blob: randomBytes(64 * 1024) });
    await things.insertOne(big('before'));
    const pages = store.database.pragma('page_count', { simple: true }) as number;
    store.database.pragma(`max_page_count = ${pages}`);
    const refused = await Promise.allSettled([things.insertOne(big('during1')), things.insertOne(big('during2'))]);
    for (const result of refused) {
      expect(result.status).toBe('rejected');
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(AppError);
      expect((result as PromiseRejectedResult).reason).toMatchObject({
        code: 'STORAGE_FULL',
        details: { retryAfterSeconds: 30 },
      });
    }
    expect(await store.ping()).toBe(false);
    store.database.pragma(`max_page_count = ${pages * 100}`);
    expect(await store.ping()).toBe(true);
    await things.insertOne(big('after'));
    expect((await things.find({})).map((d) => d._id)).toEqual(['before', 'after']);
    await store.close();
  });
});

describe('the same answers with and without index entries', () => {
  it('for sorted pages walked from sort entries, with regular and irregular documents', async () => {
    const sqlite = createSqliteDocumentStore({ path: freshPath(), cacheDocuments: 10 });
    // The oracle: no declared index, so every query scans in insertion order, tests each document
    // against the filter and sorts in memory.
    const scanned = createEmbeddedDocumentStore({ cacheDocuments: 0 });
    const values = [
      new Date(5),
      new Date(3),
      '2026-01-01',
      7,
      -2.5,
      null,
      undefined,
      ['x', 1],
      true,
      { o: 1 },
      new Date(5),
      0,
    ];
    for (const store of [sqlite, scanned]) {
      const c = store.collection('payments');
      if (store === sqlite) {
        await c.createIndex({ keys: { platformId: 1, createdAt: -1, _id: -1 } });
        await c.createIndex({ keys: { status: 1, dueAt: 1 } });
        await c.createIndex({ keys: { 'steps.at': 1 } });
      }
      for (let i = 0; i < 120; i++) {
        const createdAt = values[(i * 7) % values.length];
        await c.insertOne({
          _id: `t${String((i * 37) % 120).padStart(3, '0')}`,
          platformId: i % 17 === 0 ? ['p1', 'p2'] : `p${i % 3}`,
          status: ['PENDING', 'DONE', 'FAILED'][i % 3],
          ...(createdAt === undefined ? {} : { createdAt }),
          dueAt: new Date(10_000 - ((i * 13) % 50)),
          customerId: `c${i % 11}`,
          ...(i % 4 === 0
            ? { steps: [{ at: new Date(i) }, { at: 'later' }] }
            : i % 4 === 1
            ? { steps: { at: new Date(i) } }
            : {}),
        });
      }
      await c.updateMany({ customerId: 'c3' }, { $set: { status: 'DONE', dueAt: new Date(1) } });
      await c.deleteMany({ customerId: 'c4' });
    }
    const queries: Array<[Record<string, unknown>, Record<string, 1 | -1>, number]> = [
      [{ platformId: 'p1' }, { createdAt: -1, _id: -1 }, 10],
      [{ $and: [{ platformId: 'p2' }, { customerId: 'c5' }] }, { createdAt: -1, _id: -1 }, 3],
      [{ platformId: { $in: ['p0', 'p2'] } }, { createdAt: 1 }, 25],
      [{ status: 'PENDING', dueAt: { $lte: new Date(9_980) } }, { dueAt: 1 }, 5],
      [{ status: { $in: ['DONE', 'FAILED'] } }, { dueAt: -1 }, 40],
      [{ customerId: 'c3' }, { _id: 1 }, 0],
      [{ platformId: 'p1', status: 'DONE' }, { createdAt: -1 }, 4],
      [{ steps: { $elemMatch: { at: { $lte: new Date(60) } } } }, { _id: 1 }, 0],
      [{ $and: [{ platformId: 'p0' }, { status: { $eq: 'FAILED' } }, { customerId: 'c9' }] }, { createdAt: 1 }, 4],
    ];
    for (const [filter, sort, limit] of queries) {
      const expected = await scanned.collection('payments').find(filter, { sort, limit });
      expect(await sqlite.collection('payments').find(filter, { sort, limit })).toEqual(expected);
      expect(await sqlite.collection('payments').countDocuments(filter)).toBe(
        await scanned.collection('payments').countDocuments(filter),
      );
    }
    // Without the irregular documents, the same pages come from the sort entries alone.
    for (const store of [sqlite, scanned]) {
      await store.collection('payments').deleteMany({
        $or: [{ platformId: { $size: 2 } }, { createdAt: { $type: 'array' } }, { createdAt: { $type: 'object' } }],
      });
    }
    for (const [filter, sort, limit] of queries) {
      expect(await sqlite.collection('payments').find(filter, { sort, limit })).toEqual(
        await scanned.collection('payments').find(filter, { sort, limit }),
      );
    }
    await sqlite.close();
    await scanned.close();
  });
});
