import { silentLogger } from '../log';
import { createEmbeddedDocumentStore } from '../store/embedded-document-store';
import { createLease, LEASES_COLLECTION, underLease } from './lease';
import { createPeriodicTask } from './periodic-task';

const store = createEmbeddedDocumentStore();
const collection = store.collection(LEASES_COLLECTION);

test('one holder at a time; a lease whose holder stopped renewing is taken over after it lapses', async () => {
  let now = 1_000;
  const clock = () => now;
  const a = createLease({ collection, name: 'relay', holder: 'a', ttlMs: 100, clock });
  const b = createLease({ collection, name: 'relay', holder: 'b', ttlMs: 100, clock });
  expect(await a.acquire()).toBe(true);
  expect(await b.acquire()).toBe(false);
  now += 60;
  expect(await a.acquire()).toBe(true); // renewed: holds until 1160
  now += 60;
  expect(await b.acquire()).toBe(false);
  expect(a.isHeld()).toBe(true);
  now += 50; // a died: no renewal since 1060
  expect(a.isHeld()).toBe(false);
  expect(await b.acquire()).toBe(true);
  expect(await a.acquire()).toBe(false);
});

test('a released lease is taken at once by another replica', async () => {
  const a = createLease({ collection, name: 'settlement', holder: 'a', ttlMs: 60_000 });
  const b = createLease({ collection, name: 'settlement', holder: 'b', ttlMs: 60_000 });
  expect(await a.acquire()).toBe(true);
  expect(await b.acquire()).toBe(false);
  await a.release();
  expect(await b.acquire()).toBe(true);
});

test('racing replicas: exactly one takes a free lease', async () => {
  const leases = Array.from(
    { length: 8 },
    (_, i) => createLease({ collection, name: 'race', holder: `r${i}`, ttlMs: 60_000 }),
  );
  const taken = await Promise.all(leases.map((l) => l.acquire()));
  expect(taken.filter(Boolean)).toHaveLength(1);
});

test('work under a lease keeps it renewed while it runs longer than the lease lifetime', async () => {
  const a = createLease({ collection, name: 'long pass', holder: 'a', ttlMs: 150 });
  const started = Date.now();
  const result = await underLease(a, () => new Promise((r) => setTimeout(() => r('done'), 600)));
  expect(result).toEqual({ ran: true, value: 'done' });
  // Renewed while working: the lease now runs well past the first expiry (started + 150 ms).
  const stored = await collection.findOne({ _id: 'long pass' });
  expect(stored).toMatchObject({ holder: 'a' });
  expect(stored!.until as number).toBeGreaterThan(started + 150 + 200);
});

test(
  'periodic tasks of several replicas sharing a lease never run '
    + 'at the same time, and the work goes on when the holder stops',
  async () => {
    let concurrent = 0;
    let overlap = false;
    const runsBy = new Map<string, number>();
    const replica = (holder: string) =>
      createPeriodicTask({
        name: 'pass',
        intervalMs: 2,
        logger: silentLogger,
        lease: createLease({ collection, name: 'pass', holder, ttlMs: 5_000 }),
        run: async () => {
          concurrent++;
          overlap ||= concurrent > 1;
          runsBy.set(holder, (runsBy.get(holder) ?? 0) + 1);
          await new Promise((r) => setTimeout(r, 3));
          concurrent--;
        },
      });
    const tasks = ['x', 'y', 'z'].map(replica);
    tasks.forEach((t) => t.start());
    const waitFor = async (condition: () => boolean) => {
      while (!condition()) await new Promise((r) => setTimeout(r, 5));
    };
    await waitFor(() => runsBy.size > 0);
    const [first] = [...runsBy.keys()];
    await tasks[['x', 'y', 'z'].indexOf(first)].stop(); // gives the lease back
    await waitFor(() => runsBy.size > 1);
    await Promise.all(tasks.map((t) => t.stop()));
    expect(overlap).toBe(false);
  },
);

test('a holder polling often writes its lease at most once per third of its lifetime', async () => {
  let writes = 0;
  const counting = new Proxy(collection, {
    get: (object, prop) => (prop === 'findOneAndUpdate'
      ? (...args: Parameters<typeof collection.findOneAndUpdate>) => {
        writes++;
        return object.findOneAndUpdate(...args);
      }
      : Reflect.get(object, prop)),
  });
  let now = 0;
  const lease = createLease({ collection: counting, name: 'often', holder: 'a', ttlMs: 300, clock: () => now });
  for (; now < 1_000; now += 10) expect(await lease.acquire()).toBe(true);
  expect(writes).toBeLessThanOrEqual(1_000 / 100 + 1);
});
