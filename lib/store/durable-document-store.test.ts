import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeDocumentStoreContract } from './document-store.contract';
import { createDurableDocumentStore } from './durable-document-store';
import { DataDirectoryInUseError } from './sqlite-journal';

const dirs: string[] = [];
const freshPath = () => {
  const dir = mkdtempSync(join(tmpdir(), 'durable-store-'));
  dirs.push(dir);
  return join(dir, 'service.sqlite');
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describeDocumentStoreContract('durable (SQLite journal)', async () => createDurableDocumentStore({ path: freshPath() }));

describe('durable store across a reopen', () => {
  it('serves exactly what was acknowledged, in insertion order, with its unique indexes', async () => {
    const path = freshPath();
    const first = createDurableDocumentStore({ path });
    const accounts = first.collection('accounts');
    await accounts.createIndex({ keys: { email: 1 }, unique: true });
    await accounts.insertOne({ _id: 'b', email: 'b@example.com', balance: 10, openedAt: new Date('2026-01-01T00:00:00Z'), key: Buffer.from('k') });
    await accounts.insertOne({ _id: 'a', email: 'a@example.com', balance: 5 });
    await accounts.insertOne({ _id: 'gone', email: 'gone@example.com', balance: 0 });
    await accounts.updateOne({ _id: 'b' }, { $inc: { balance: 7 } });
    await accounts.deleteOne({ _id: 'gone' });
    await expect(accounts.insertOne({ _id: 'c', email: 'a@example.com' })).rejects.toThrow('duplicate key');
    await first.close();

    const second = createDurableDocumentStore({ path });
    const reopened = second.collection('accounts');
    await reopened.createIndex({ keys: { email: 1 }, unique: true });
    const docs = await reopened.find({});
    expect(docs.map((d) => d._id)).toEqual(['b', 'a']);
    expect(docs[0]).toEqual({ _id: 'b', email: 'b@example.com', balance: 17, openedAt: new Date('2026-01-01T00:00:00Z'), key: Buffer.from('k') });
    expect(Buffer.isBuffer(docs[0].key)).toBe(true);
    await expect(reopened.insertOne({ _id: 'd', email: 'b@example.com' })).rejects.toThrow('duplicate key');
    expect(await reopened.countDocuments({})).toBe(2);
    await second.close();
  });

  it('writes the documents of one updateMany together', async () => {
    const path = freshPath();
    const first = createDurableDocumentStore({ path });
    const items = first.collection('items');
    for (let i = 0; i < 5; i++) await items.insertOne({ _id: `i${i}`, state: 'PENDING' });
    expect((await items.updateMany({ state: 'PENDING' }, { $set: { state: 'DONE' } })).modifiedCount).toBe(5);
    await first.close();
    const second = createDurableDocumentStore({ path });
    expect(await second.collection('items').countDocuments({ state: 'DONE' })).toBe(5);
    await second.close();
  });

  it('refuses a second opener of the same file while the first holds it', async () => {
    const path = freshPath();
    const first = createDurableDocumentStore({ path });
    await first.collection('x').insertOne({ _id: '1' });
    expect(() => createDurableDocumentStore({ path })).toThrow(DataDirectoryInUseError);
    await first.close();
    const after = createDurableDocumentStore({ path });
    expect(await after.collection('x').countDocuments({})).toBe(1);
    await after.close();
  });
});
