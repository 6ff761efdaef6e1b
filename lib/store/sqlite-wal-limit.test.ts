import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteDocumentStore } from './sqlite-document-store';
import { walBytes } from './sqlite-schema';

const dirs: string[] = [];
const freshPath = () => {
  const dir = mkdtempSync(join(tmpdir(), 'sqlite-wal-'));
  dirs.push(dir);
  return join(dir, 'service.sqlite');
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const PAGE = 4_096;
const walSize = (path: string) => (existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0);

/**
 * A burst of writes: `rounds` groups of 16 concurrent operations (each group one commit), a 3 KB
 * incompressible document inserted and an earlier one rewritten per operation, about 15 MB of WAL
 * frames in all. Returns the largest WAL file seen after any commit.
 */
async function burst(
  path: string,
  walLimitPages?: number,
  rounds = 150,
): Promise<{ maxWal: number; documents: number }> {
  const store = createSqliteDocumentStore({ path, walLimitPages });
  const items = store.collection('items');
  await items.createIndex({ keys: { group: 1, at: 1 } });
  let maxWal = 0;
  for (let round = 0; round < rounds; round++) {
    await Promise.all(Array.from({ length: 16 }, async (_, i) => {
      const id = `d${round * 16 + i}`;
      await items.insertOne({ _id: id, group: i, at: round, pad: randomBytes(2_300).toString('base64') });
      if (round > 0) {
        await items.updateOne({ _id: `d${(round - 1) * 16 + i}` }, {
          $set: { pad: randomBytes(2_300).toString('base64') },
        });
      }
    }));
    maxWal = Math.max(maxWal, walSize(path));
  }
  const documents = await items.countDocuments({});
  await store.close();
  return { maxWal, documents };
}

describe('the WAL bound', () => {
  it('holds the WAL file within its bound through a burst of writes, and loses none of them', async () => {
    const limitPages = 600;
    const path = freshPath();
    const { maxWal, documents } = await burst(path, limitPages);
    // The bound, plus the frames of the commit that reached it (16 inserts and updates: under 100 pages).
    expect(maxWal).toBeGreaterThan(walBytes(limitPages / 2, PAGE));
    expect(maxWal).toBeLessThanOrEqual(walBytes(limitPages + 100, PAGE));
    expect(documents).toBe(150 * 16);
    const reopened = createSqliteDocumentStore({ path });
    expect(await reopened.collection('items').countDocuments({})).toBe(150 * 16);
    expect(await reopened.collection('items').findOne({ _id: 'd2398' })).toMatchObject({ group: 14, at: 149 });
    await reopened.close();
  }, 60_000);

  it('is what bounds it: the same burst under the default bound grows the WAL far past that size', async () => {
    const { maxWal } = await burst(freshPath(), undefined, 80);
    expect(maxWal).toBeGreaterThan(walBytes(1_500, PAGE));
  }, 60_000);
});
