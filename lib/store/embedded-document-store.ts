import type { Doc, DocumentCollection, DocumentStore } from './document-store';
import { EmbeddedCollection } from './embedded-collection';

/** The in-process DocumentStore: MongoDB's collection semantics over memory, for the default mode and tests. */
export function createEmbeddedDocumentStore(): DocumentStore {
  const collections = new Map<string, EmbeddedCollection>();
  return {
    collection<T extends Doc = Doc>(name: string): DocumentCollection<T> {
      let collection = collections.get(name);
      if (!collection) {
        collection = new EmbeddedCollection(name);
        collections.set(name, collection);
      }
      return collection as unknown as DocumentCollection<T>;
    },
    async ping() {
      return true;
    },
    async close() {},
  };
}
