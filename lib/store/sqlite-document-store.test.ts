import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeDocumentStoreContract } from './document-store.contract';
import { createSqliteDocumentStore } from './sqlite-document-store';

const dirs: string[] = [];
const freshPath = () => {
  const dir = mkdtempSync(join(tmpdir(), 'sqlite-store-'));
  dirs.push(dir);
  return join(dir, 'service.sqlite');
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describeDocumentStoreContract('SQLite engine', async () => createSqliteDocumentStore({ path: freshPath() }));
describeDocumentStoreContract('SQLite engine, no cache', async () => createSqliteDocumentStore({ path: freshPath(), cacheDocuments: 0 }));
