import type { DocumentCollection, DocumentStore } from '../store/document-store';
import { instruments, metricsEnabled, secondsSince } from '../metrics';

const OPERATIONS = new Set([
  'insertOne',
  'findOne',
  'find',
  'countDocuments',
  'updateOne',
  'updateMany',
  'findOneAndUpdate',
  'deleteOne',
  'deleteMany',
  'createIndex',
]);

/**
 * The store with each operation's latency recorded (`store_operation_duration_seconds`, by
 * collection and operation, failures with `error=true`). Without metrics the store is returned as is.
 */
export function meteredStore(store: DocumentStore): DocumentStore {
  if (!metricsEnabled()) return store;
  const histogram = instruments().storeOperations;
  const collections = new Map<string, DocumentCollection>();
  const meter = (target: DocumentCollection): DocumentCollection =>
    new Proxy(target, {
      get(object, prop) {
        const value = Reflect.get(object, prop);
        if (typeof value !== 'function') return value;
        if (!OPERATIONS.has(String(prop))) return value.bind(object);
        return async (...args: unknown[]) => {
          const started = process.hrtime.bigint();
          let failed = false;
          try {
            return await (value as (...a: unknown[]) => Promise<unknown>).apply(object, args);
          } catch (err) {
            failed = true;
            throw err;
          } finally {
            histogram.record(secondsSince(started), {
              collection: object.name,
              operation: String(prop),
              ...(failed ? { error: true } : {}),
            });
          }
        };
      },
    });
  const collection = (name: string) => {
    let c = collections.get(name);
    if (!c) collections.set(name, c = meter(store.collection(name)));
    return c;
  };
  // Everything else the store offers passes through untouched.
  return new Proxy(store, {
    get(object, prop) {
      if (prop === 'collection') return collection;
      const value = Reflect.get(object, prop);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
}
