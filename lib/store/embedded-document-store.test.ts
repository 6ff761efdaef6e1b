import { describeDocumentStoreContract } from './document-store.contract';
import { createEmbeddedDocumentStore } from './embedded-document-store';

describeDocumentStoreContract('embedded, in memory (SQLite :memory:)', async () => createEmbeddedDocumentStore());
describeDocumentStoreContract(
  'embedded, in memory, no cache',
  async () => createEmbeddedDocumentStore({ cacheDocuments: 0 }),
);
