import { createEmbeddedDocumentStore } from '../../../../lib/store/embedded-document-store';
import { createCrashingStore } from '../../test-fixtures/crashing-store';
import { createVolumeDocumentStore, RESERVATIONS_COLLECTION, VOLUMES_COLLECTION } from './volume-document-store';

const DAY1 = 'Platform:p/USD/*/2025-10-13';
const CORRIDOR = 'Platform:p/USD/MXN/2025-10-13';
const PAYMENT = 'Transaction:00000000-0000-4000-8000-000000000001';
const OTHER = 'Transaction:00000000-0000-4000-8000-000000000002';

function setup() {
  const store = createEmbeddedDocumentStore();
  const used = async (counter: string) => (await store.collection(VOLUMES_COLLECTION).findOne({ _id: counter }))?.used;
  return { volumes: createVolumeDocumentStore(store), used };
}

test('a release gives back what the payment reserved, on every counter, once', async () => {
  const { volumes, used } = setup();
  await volumes.reserve({ counter: DAY1, paymentId: PAYMENT, amount: 700, limit: 1_000 });
  await volumes.reserve({ counter: CORRIDOR, paymentId: PAYMENT, amount: 700, limit: 1_000 });
  await volumes.reserve({ counter: DAY1, paymentId: OTHER, amount: 200, limit: 1_000 });
  await volumes.release({ paymentId: PAYMENT });
  await volumes.release({ paymentId: PAYMENT });
  expect([await used(DAY1), await used(CORRIDOR)]).toEqual([200, 0]);
});

test('a released payment is not counted again by a late reservation, which still answers true', async () => {
  const { volumes, used } = setup();
  await volumes.reserve({ counter: DAY1, paymentId: PAYMENT, amount: 700, limit: 1_000 });
  await volumes.release({ paymentId: PAYMENT });
  expect(await volumes.reserve({ counter: DAY1, paymentId: PAYMENT, amount: 700, limit: 1_000 })).toBe(true);
  expect(await used(DAY1)).toBe(0);
});

test('releasing a payment that reserved nothing changes nothing; a release makes room for the next one', async () => {
  const { volumes, used } = setup();
  await volumes.reserve({ counter: DAY1, paymentId: PAYMENT, amount: 700, limit: 1_000 });
  await volumes.release({ paymentId: OTHER });
  expect(await used(DAY1)).toBe(700);
  expect(await volumes.reserve({ counter: DAY1, paymentId: OTHER, amount: 700, limit: 1_000 })).toBe(false);
  await volumes.release({ paymentId: PAYMENT });
  expect(await volumes.reserve({ counter: DAY1, paymentId: OTHER, amount: 700, limit: 1_000 })).toBe(true);
});

test('concurrent reservations of a payment count it once; racing payments never pass the limit together', async () => {
  const { volumes, used } = setup();
  const same = await Promise.all(
    Array.from({ length: 10 }, () => volumes.reserve({ counter: DAY1, paymentId: PAYMENT, amount: 300, limit: 1_000 })),
  );
  expect(same.every(Boolean)).toBe(true);
  expect(await used(DAY1)).toBe(300);
  const others = await Promise.all(
    Array.from(
      { length: 10 },
      (_, i) => volumes.reserve({ counter: DAY1, paymentId: `Transaction:racer-${i}`, amount: 300, limit: 1_000 }),
    ),
  );
  expect(others.filter(Boolean)).toHaveLength(2);
  expect(await used(DAY1)).toBe(900);
});

test('a counter document holds no payment ids: it stays one size however many payments the day holds', async () => {
  const store = createEmbeddedDocumentStore();
  const volumes = createVolumeDocumentStore(store);
  const size = async () => JSON.stringify(await store.collection(VOLUMES_COLLECTION).findOne({ _id: DAY1 })).length;
  await volumes.reserve({ counter: DAY1, paymentId: PAYMENT, amount: 1, limit: 1_000_000 });
  const first = await size();
  for (let i = 0; i < 300; i++) {
    await volumes.reserve({ counter: DAY1, paymentId: `Transaction:p-${i}`, amount: 1, limit: 1_000_000 });
  }
  expect(await size()).toBeLessThanOrEqual(first + 3);
});

test("a reservation is two writes: the counter's next reservation removes the key the previous one left", async () => {
  const store = createEmbeddedDocumentStore();
  const volumes = createVolumeDocumentStore(store);
  const counters = store.collection(VOLUMES_COLLECTION);
  await volumes.reserve({ counter: DAY1, paymentId: PAYMENT, amount: 100, limit: 1_000 });
  const writes = jest.spyOn(counters, 'updateOne');
  const inserts = jest.spyOn(store.collection(RESERVATIONS_COLLECTION), 'insertOne');
  await volumes.reserve({ counter: DAY1, paymentId: OTHER, amount: 100, limit: 1_000 });
  expect(writes.mock.calls.length + inserts.mock.calls.length).toBe(2);
  const pending = (await counters.findOne({ _id: DAY1 }))?.pending as Record<string, number>;
  expect(Object.keys(pending).map((k) => Buffer.from(k, 'base64url').toString())).toEqual([OTHER]);
  // recorded: not counted again
  expect(await volumes.reserve({ counter: DAY1, paymentId: PAYMENT, amount: 100, limit: 1_000 })).toBe(true);
  expect((await counters.findOne({ _id: DAY1 }))?.used).toBe(200);
});

describe('a crash between the writes of a reservation or a release', () => {
  function crashingSetup() {
    const inner = createEmbeddedDocumentStore();
    const crashing = createCrashingStore(inner, RESERVATIONS_COLLECTION);
    const used = async () => (await inner.collection(VOLUMES_COLLECTION).findOne({ _id: DAY1 }))?.used;
    return { crashing, volumes: createVolumeDocumentStore(crashing.store), used };
  }

  test('a reservation replayed after its amount went in counts it once', async () => {
    const { crashing, volumes, used } = crashingSetup();
    crashing.crashAfter(0);
    await expect(volumes.reserve({ counter: DAY1, paymentId: PAYMENT, amount: 700, limit: 1_000 })).rejects.toThrow(
      'simulated crash',
    );
    expect(await used()).toBe(700);
    crashing.recover();
    expect(await volumes.reserve({ counter: DAY1, paymentId: PAYMENT, amount: 700, limit: 1_000 })).toBe(true);
    expect(await used()).toBe(700);
    await volumes.release({ paymentId: PAYMENT });
    expect(await used()).toBe(0);
  });

  test('a release replayed after its amount came off takes it off once', async () => {
    const { crashing, volumes, used } = crashingSetup();
    await volumes.reserve({ counter: DAY1, paymentId: PAYMENT, amount: 700, limit: 1_000 });
    await volumes.reserve({ counter: DAY1, paymentId: OTHER, amount: 200, limit: 1_000 });
    crashing.crashAfter(0);
    await expect(volumes.release({ paymentId: PAYMENT })).rejects.toThrow('simulated crash');
    expect(await used()).toBe(200);
    crashing.recover();
    await volumes.release({ paymentId: PAYMENT });
    await volumes.release({ paymentId: PAYMENT });
    expect(await used()).toBe(200);
  });
});
