import { createSqliteDocumentStore } from './sqlite-document-store';
import { COMPRESS_FROM_BYTES } from './sqlite-statements';

/** A document whose BSON is over the compression threshold. */
const large = (id: string) => ({
  _id: id,
  notes: 'posting marker of a busy balance '.repeat(COMPRESS_FROM_BYTES / 16),
});

describe('large bodies deflated once cold', () => {
  it('deflates what a group let go, a bounded number at once; the rest stay plain and read back', async () => {
    const store = createSqliteDocumentStore({ path: ':memory:', cacheDocuments: 2 });
    const balances = store.collection('balances');
    const compressedCount = () =>
      store.database.prepare('SELECT count(*) FROM documents WHERE substr(body, 1, 4) = zeroblob(4)').pluck().get();

    // 100 inserts in one group: 98 go cold before it commits; its commit deflates no more than 64 of them.
    await Promise.all(Array.from({ length: 100 }, (_, i) => balances.insertOne(large(`b${i}`))));
    expect(compressedCount()).toBe(64);

    // Afterwards each document let go is deflated by the next commit.
    await balances.insertOne(large('b100'));
    await balances.insertOne(large('b101'));
    expect(compressedCount()).toBe(66);
    expect(await balances.countDocuments({})).toBe(102);
    expect(await balances.findOne({ _id: 'b0' })).toEqual(large('b0'));
    expect(await balances.findOne({ _id: 'b99' })).toEqual(large('b99'));
    await store.close();
  });
});
