import { createKeyedLock } from './keyed-lock';

test('same key runs in order, other keys in parallel, failures do not block', async () => {
  const lock = createKeyedLock();
  const events: string[] = [];
  const slow = (name: string, ms: number, fail = false) => async () => {
    events.push(`start ${name}`);
    await new Promise((r) => setTimeout(r, ms));
    events.push(`end ${name}`);
    if (fail) throw new Error(name);
    return name;
  };
  const results = await Promise.allSettled([
    lock.run('a', slow('a1', 20, true)),
    lock.run('a', slow('a2', 1)),
    lock.run('b', slow('b1', 5)),
  ]);
  expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
  expect(events.indexOf('end a1')).toBeLessThan(events.indexOf('start a2'));
  expect(events.indexOf('start b1')).toBeLessThan(events.indexOf('end a1'));
});
