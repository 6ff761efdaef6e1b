import type { DocumentCollection, DocumentStore } from '../../../lib/store/document-store';

const WRITES = ['insertOne', 'updateOne', 'updateMany', 'findOneAndUpdate', 'deleteOne', 'deleteMany'] as const;

/**
 * A store that "crashes" after a budget of writes: once armed with `crashAfter(n)`, the n+1th write
 * and every one after it throw, as if the process had died there. Reads keep working (they do not
 * change anything). `writes` counts the writes done since arming.
 */
export function createCrashingDocumentStore(inner: DocumentStore) {
  let budget = Infinity;
  let writes = 0;
  const wrap = (collection: DocumentCollection): DocumentCollection => {
    const proxy = Object.create(collection) as Record<string, unknown>;
    for (const method of WRITES) {
      proxy[method] = async (...args: unknown[]) => {
        if (writes >= budget) throw new Error('simulated crash');
        writes++;
        return (collection[method] as (...a: unknown[]) => Promise<unknown>).apply(collection, args);
      };
    }
    return proxy as unknown as DocumentCollection;
  };
  const store: DocumentStore & { crashAfter(n: number): void; disarm(): void; readonly writes: number } = {
    collection: (name) => wrap(inner.collection(name)) as never,
    ping: () => inner.ping(),
    close: async () => undefined,
    crashAfter(n) {
      budget = n;
      writes = 0;
    },
    disarm() {
      budget = Infinity;
    },
    get writes() {
      return writes;
    },
  };
  return store;
}
