import type { DocumentStore } from '../../../lib/store/document-store';

const WRITES = new Set(['insertOne', 'updateOne', 'updateMany', 'findOneAndUpdate', 'deleteOne', 'deleteMany']);

/**
 * A store whose writes to one collection can be made to fail, as if the process died there:
 * `crashAfter(n)` lets n more writes through, then fails every write until `recover()`.
 * With `about`, only the writes whose arguments mention it count and fail (one payment's writes,
 * while background workers keep writing for others).
 */
export function createCrashingStore(inner: DocumentStore, collectionName: string) {
  let allowed = Infinity;
  let about: string | undefined;
  const concerned = (args: unknown[]) => about === undefined || JSON.stringify(args).includes(about);
  const collection = ((name: string) => {
    const target = inner.collection(name);
    if (name !== collectionName) return target;
    return new Proxy(target, {
      get(object, prop, receiver) {
        const value = Reflect.get(object, prop, receiver);
        if (typeof value !== 'function') return value;
        if (!WRITES.has(String(prop))) return value.bind(object);
        return (...args: unknown[]) => {
          if (allowed !== Infinity && concerned(args)) {
            if (allowed <= 0) return Promise.reject(new Error('simulated crash'));
            allowed--;
          }
          return (value as (...a: unknown[]) => unknown).apply(object, args);
        };
      },
    });
  }) as DocumentStore['collection'];
  const store: DocumentStore = { collection, ping: () => inner.ping(), close: () => inner.close() };
  return {
    store,
    crashAfter: (writes: number, onlyAbout?: string) => {
      allowed = writes;
      about = onlyAbout;
    },
    recover: () => {
      allowed = Infinity;
      about = undefined;
    },
  };
}
