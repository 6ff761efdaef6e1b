/**
 * Runs tasks with the same key one after another (in this process). Identical signed retries
 * arriving together queue behind the first, so they all see the outcome it produced instead of
 * racing it (at-most-once itself does not depend on this: the claim is a conditional write); a
 * payment's volume reservations run one at a time (volume-document-store.ts).
 */
export interface KeyedLock {
  run<T>(key: string, task: () => Promise<T>): Promise<T>;
}

export function createKeyedLock(): KeyedLock {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run(key, task) {
      const previous = tails.get(key) ?? Promise.resolve();
      const result = previous.then(task, task);
      const tail = result.catch(() => undefined);
      tails.set(key, tail);
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return result;
    },
  };
}
