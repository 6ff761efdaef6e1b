import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { DocumentStorage } from '../app/document-storage';

const KEY = /^[A-Za-z0-9_-]{1,128}(\/[A-Za-z0-9_-]{1,128})*$/;

function pathOf(root: string, key: string): string {
  if (!KEY.test(key)) throw new Error('invalid document storage key');
  return join(root, key);
}

/**
 * The default: files under `<DATA_DIR>/documents`, mode 0600. A file is written to a temporary
 * name, flushed to disk, then renamed into place, so a crash never leaves part of a file under its key.
 */
export function createDiskDocumentStorage(root: string): DocumentStorage {
  return {
    async put(key, content) {
      const target = pathOf(root, key);
      await mkdir(dirname(target), { recursive: true, mode: 0o700 });
      const temporary = `${target}.${randomBytes(6).toString('hex')}.partial`;
      const handle = await open(temporary, 'wx', 0o600);
      try {
        await handle.writeFile(content);
        await handle.sync();
      } catch (err) {
        await handle.close();
        await rm(temporary, { force: true });
        throw err;
      }
      await handle.close();
      await rename(temporary, target);
    },
    async get(key) {
      try {
        return await readFile(pathOf(root, key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async delete(key) {
      await rm(pathOf(root, key), { force: true });
    },
  };
}

/** For DATA_DIR=:memory: (tests, benchmarks): nothing is kept. */
export function createMemoryDocumentStorage(): DocumentStorage & { keys(): string[] } {
  const files = new Map<string, Buffer>();
  return {
    async put(key, content) {
      files.set(key, Buffer.from(content));
    },
    async get(key) {
      return files.get(key) ?? null;
    },
    async delete(key) {
      files.delete(key);
    },
    keys: () => [...files.keys()],
  };
}
