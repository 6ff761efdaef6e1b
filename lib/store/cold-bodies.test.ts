import { createSqliteDocumentStore } from './sqlite-document-store';
import { COMPRESS_FROM_BYTES } from './sqlite-statements';

/** A document whose BSON is over the compression threshold. */
const large = (id: string) => ({
  _id: id,
  notes: 'posting marker of a busy balance '.repeat(COMPRESS_FROM_BYTES / 16),
});

describe('large bodies deflated once cold', () => {
  it('deflates what a group let go, so many per commit and in all; the rest stay plain and read back', async () => {
    const store = createSqliteDocumentStore({ path: ':memory:', cacheDocuments: 100 });
    const balances = store.collection('balances');
    const compressedCount = () =>
      store.database.prepare('SELECT count(*) FROM documents WHERE substr(body, 1, 4) = zeroblob(4)').pluck().get();

    // 300 inserts in one group: 200 are let go before it commits. As many as the cache holds (100) wait to be
    // deflated, the others stay plain; the group's commit deflates 64 of them.
    await Promise.all(Array.from({ length: 300 }, (_, i) => balances.insertOne(large(`b${i}`))));
    expect(compressedCount()).toBe(64);

    // The next commit deflates the 36 still waiting, and the one its own insert let go.
    await balances.insertOne(large('b300'));
    expect(compressedCount()).toBe(101);
    expect(await balances.countDocuments({})).toBe(301);
    expect(await balances.findOne({ _id: 'b0' })).toEqual(large('b0'));
    expect(await balances.findOne({ _id: 'b299' })).toEqual(large('b299'));
    await store.close();
  });
});
