import { describeDocumentStoreContract } from './document-store.contract';
import { createEmbeddedDocumentStore } from './embedded-document-store';

describeDocumentStoreContract('embedded', async () => createEmbeddedDocumentStore());
