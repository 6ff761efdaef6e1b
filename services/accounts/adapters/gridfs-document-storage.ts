import { GridFSBucket, type Db, type ObjectId } from 'mongodb';
import type { DocumentStorage } from '../app/document-storage';

/**
 * Document files in MongoDB's GridFS, in the database that holds their records. The driver writes
 * a file's chunks first and its `<bucket>.files` entry last, and readers look files up by that
 * entry, so a reader never sees part of a file; a write cut short leaves chunks no entry names
 * (never served). The driver creates the indexes GridFS needs (`files` by filename and upload
 * date, `chunks` unique by file and number) on the first write to an empty bucket.
 */
export function createGridFsDocumentStorage(db: Db, bucketName = 'documents'): DocumentStorage {
  const bucket = new GridFSBucket(db, { bucketName });
  const idsOf = async (key: string): Promise<ObjectId[]> =>
    (await bucket.find({ filename: key }, { sort: { uploadDate: -1 }, projection: { _id: 1 } }).toArray()).map((f) =>
      f._id
    );
  const removeAll = async (ids: ObjectId[]) => {
    for (const id of ids) {
      try {
        await bucket.delete(id);
      } catch (err) {
        // Another replica removed it first.
        if (!/FileNotFound|File not found/i.test(String((err as Error).message))) throw err;
      }
    }
  };
  return {
    async put(key, content) {
      const before = await idsOf(key);
      await new Promise<void>((resolve, reject) => {
        const upload = bucket.openUploadStream(key);
        upload.once('error', reject);
        upload.once('finish', () => resolve());
        upload.end(Buffer.from(content.buffer, content.byteOffset, content.byteLength));
      });
      // Keys are fresh per file, but a second write under one key replaces the first.
      await removeAll(before);
    },
    async get(key) {
      const [id] = await idsOf(key);
      if (!id) return null;
      const parts: Buffer[] = [];
      try {
        for await (const chunk of bucket.openDownloadStream(id)) parts.push(chunk as Buffer);
      } catch (err) {
        if (/FileNotFound|File not found/i.test(String((err as Error).message))) return null;
        throw err;
      }
      return Buffer.concat(parts);
    },
    async delete(key) {
      await removeAll(await idsOf(key));
    },
  };
}
