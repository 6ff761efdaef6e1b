import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { createGridFsDocumentStorage } from './gridfs-document-storage';

/**
 * GridFS document files against a real MongoDB server: skipped without MONGODB_URI (no server can
 * be installed where this project is developed); `MONGODB_URI=… npm run test:mongo` runs it.
 */
const uri = process.env.MONGODB_URI?.trim();
const suite = uri ? describe : describe.skip;

suite(
  uri
    ? 'GridFS document storage at MONGODB_URI'
    : 'GridFS document storage (skipped: MONGODB_URI is not set; run MONGODB_URI=… npm run test:mongo)',
  () => {
    const dbName = `gridfs_documents_${randomBytes(4).toString('hex')}`;
    const clients: MongoClient[] = [];
    const replica = () => {
      const client = new MongoClient(uri!);
      clients.push(client);
      return { client, storage: createGridFsDocumentStorage(client.db(dbName)) };
    };
    afterAll(async () => {
      await clients[0]?.db(dbName).dropDatabase();
      await Promise.all(clients.map((c) => c.close()));
    });

    test('a file larger than one chunk comes back byte for byte, to another replica and after a restart', async () => {
      const a = replica();
      const b = replica();
      const file = randomBytes(700 * 1024); // GridFS chunks are 255 KiB: three chunks
      await a.storage.put('Platform-1/Document-1', file);
      expect((await b.storage.get('Platform-1/Document-1'))!.equals(file)).toBe(true);
      await a.client.close();
      const restarted = replica();
      expect((await restarted.storage.get('Platform-1/Document-1'))!.equals(file)).toBe(true);
    });

    test("missing files read as null; a replica's delete is seen by the other; deleting twice is fine", async () => {
      const a = replica();
      const b = replica();
      expect(await a.storage.get('Platform-1/none')).toBeNull();
      await a.storage.put('Platform-1/Document-2', Buffer.from('%PDF-1.7 two'));
      await b.storage.delete('Platform-1/Document-2');
      expect(await a.storage.get('Platform-1/Document-2')).toBeNull();
      await a.storage.delete('Platform-1/Document-2');
      const files = await a.client.db(dbName).collection('documents.files').countDocuments({
        filename: 'Platform-1/Document-2',
      });
      const chunks = await a.client.db(dbName).collection('documents.chunks').countDocuments({});
      expect(files).toBe(0);
      expect(chunks).toBeGreaterThan(0); // Document-1's chunks only
    });

    test('a second write under one key replaces the first; the GridFS indexes exist after a first write', async () => {
      const { client, storage } = replica();
      await storage.put('Platform-1/Document-3', Buffer.from('first'));
      await storage.put('Platform-1/Document-3', Buffer.from('second'));
      expect(await storage.get('Platform-1/Document-3')).toEqual(Buffer.from('second'));
      expect(
        await client.db(dbName).collection('documents.files').countDocuments({ filename: 'Platform-1/Document-3' }),
      ).toBe(1);
      const chunkIndexes = await client.db(dbName).collection('documents.chunks').indexes();
      expect(chunkIndexes).toEqual(
        expect.arrayContaining([expect.objectContaining({ key: { files_id: 1, n: 1 }, unique: true })]),
      );
      const fileIndexes = await client.db(dbName).collection('documents.files').indexes();
      expect(fileIndexes).toEqual(
        expect.arrayContaining([expect.objectContaining({ key: { filename: 1, uploadDate: 1 } })]),
      );
    });
  },
);
