import { createEmbeddedDocumentStore } from '../../../../lib/store/embedded-document-store';
import type { DocumentStore } from '../../../../lib/store/document-store';
import type { UsageLimits } from '../app/agent-usage';
import { createCrashingStore } from '../../test-fixtures/crashing-store';
import {
  AGENT_USAGE_COLLECTION,
  AGENT_USAGE_RESERVATIONS_COLLECTION,
  createAgentUsageDocumentStore,
} from './agent-usage-document-store';
import { createVolumeDocumentStore, VOLUMES_COLLECTION } from '../../payments/store/volume-document-store';

const AGENT = 'Agent:1';
const DAY = '2026-05-01';
const MONTH = '2026-05';
const LIMITS: UsageLimits = { dailyTransactionLimit: 3, dailyLimit: 1_000, monthlyLimit: 1_500 };
const reserveOf =
  (usage: ReturnType<typeof createAgentUsageDocumentStore>) =>
  (actionId: string, amount: number, over: Partial<{ day: string; limits: UsageLimits }> = {}) =>
    usage.reserve({
      agentId: AGENT,
      actionId,
      day: over.day ?? DAY,
      month: MONTH,
      amount,
      limits: over.limits ?? LIMITS,
    });

function setup(store: DocumentStore = createEmbeddedDocumentStore()) {
  const usage = createAgentUsageDocumentStore(store);
  return { store, usage, reserve: reserveOf(usage), used: (day = DAY) => usage.used(AGENT, day, MONTH) };
}

test('one payment counts on the day and the month; a release gives it back once', async () => {
  const { usage, reserve, used } = setup();
  expect(await reserve('A:1', 400)).toBeNull();
  expect(await reserve('A:2', 100)).toBeNull();
  expect(await used()).toEqual({ dailyTransactionCount: 2, dailySpend: 500, monthlySpend: 500 });
  await usage.release('A:1');
  await usage.release('A:1');
  expect(await used()).toEqual({ dailyTransactionCount: 1, dailySpend: 100, monthlySpend: 100 });
  expect(await reserve('A:1', 400)).toBeNull(); // released: a late repeat does not count it again
  expect((await used()).dailySpend).toBe(100);
});

test('each limit refuses with the usage that refused it, and counts nothing', async () => {
  const { reserve, used } = setup();
  expect(await reserve('A:big', 1_001)).toMatchObject({ dailySpend: 0 }); // above the day's limit on its own
  expect(await reserve('A:1', 900)).toBeNull();
  expect(await reserve('A:2', 200)).toEqual({ dailyTransactionCount: 1, dailySpend: 900, monthlySpend: 900 });
  expect(await reserve('A:3', 50)).toBeNull();
  expect(await reserve('A:4', 50)).toBeNull();
  expect(await reserve('A:5', 1)).toMatchObject({ dailyTransactionCount: 3 });
  expect(await reserve('A:6', 600, { day: '2026-05-02' })).toEqual({
    dailyTransactionCount: 0,
    dailySpend: 0,
    monthlySpend: 1_000,
  }); // the month's limit
  expect(await reserve('A:7', 500, { day: '2026-05-02' })).toBeNull();
  expect(await used('2026-05-02')).toEqual({ dailyTransactionCount: 1, dailySpend: 500, monthlySpend: 1_500 });
  expect(await reserve('A:8', 1, { limits: { dailyTransactionLimit: 0 } })).not.toBeNull();
});

test('racing payments never pass a limit together; repeats of one payment count it once', async () => {
  const { reserve, used } = setup();
  const same = await Promise.all(Array.from({ length: 10 }, () => reserve('A:same', 300)));
  expect(same.every((r) => r === null)).toBe(true);
  const others = await Promise.all(
    Array.from({ length: 20 }, (_, i) => reserve(`A:racer-${i}`, 300, { limits: { dailyLimit: 1_000 } })),
  );
  expect(others.filter((r) => r === null)).toHaveLength(2);
  expect(await used()).toEqual({ dailyTransactionCount: 3, dailySpend: 900, monthlySpend: 900 });
});

test('a reservation is two writes: the next one removes the key the previous one left', async () => {
  const { store, reserve } = setup();
  await reserve('A:1', 100);
  const writes = jest.spyOn(store.collection(AGENT_USAGE_COLLECTION), 'updateOne');
  const inserts = jest.spyOn(store.collection(AGENT_USAGE_RESERVATIONS_COLLECTION), 'insertOne');
  await reserve('A:2', 100);
  expect(writes.mock.calls.length + inserts.mock.calls.length).toBe(2);
  const pending = (await store.collection(AGENT_USAGE_COLLECTION).findOne({ _id: `agent/${AGENT}/${MONTH}` }))
    ?.pending as Record<string, number>;
  expect(Object.keys(pending).map((k) => Buffer.from(k, 'base64url').toString())).toEqual(['A:2']);
});

test('usage in three per-counter documents seeds the month, and their reservations are released', async () => {
  const store = createEmbeddedDocumentStore();
  const volumes = createVolumeDocumentStore(store);
  await volumes.reserve({ counter: `agent/${AGENT}/count/${DAY}`, paymentId: 'A:old', amount: 1, limit: 10 });
  await volumes.reserve({ counter: `agent/${AGENT}/spend/${DAY}`, paymentId: 'A:old', amount: 800, limit: 10_000 });
  await volumes.reserve({ counter: `agent/${AGENT}/spend/${MONTH}`, paymentId: 'A:old', amount: 800, limit: 10_000 });
  const { usage, reserve, used } = setup(store);
  expect(await used()).toEqual({ dailyTransactionCount: 1, dailySpend: 800, monthlySpend: 800 });
  expect(await reserve('A:1', 300)).toMatchObject({ dailySpend: 800 });
  expect(await reserve('A:1', 200)).toBeNull();
  await usage.release('A:old');
  expect((await store.collection(VOLUMES_COLLECTION).findOne({ _id: `agent/${AGENT}/spend/${DAY}` }))?.used).toBe(0);
});

describe('a crash between the writes of a reservation or a release', () => {
  test('a reservation replayed after its amount went in counts it once', async () => {
    const inner = createEmbeddedDocumentStore();
    const crashing = createCrashingStore(inner, AGENT_USAGE_RESERVATIONS_COLLECTION);
    const { usage, reserve, used } = setup(crashing.store);
    crashing.crashAfter(0);
    await expect(reserve('A:1', 700)).rejects.toThrow('simulated crash');
    expect((await used()).dailySpend).toBe(700);
    crashing.recover();
    expect(await reserve('A:1', 700)).toBeNull();
    expect((await used()).dailySpend).toBe(700);
    await usage.release('A:1');
    expect(await used()).toEqual({ dailyTransactionCount: 0, dailySpend: 0, monthlySpend: 0 });
  });

  test('a release replayed after its amount came off takes it off once', async () => {
    const inner = createEmbeddedDocumentStore();
    const crashing = createCrashingStore(inner, AGENT_USAGE_RESERVATIONS_COLLECTION);
    const { usage, reserve, used } = setup(crashing.store);
    await reserve('A:1', 700);
    await reserve('A:2', 200);
    crashing.crashAfter(0);
    await expect(usage.release('A:1')).rejects.toThrow('simulated crash');
    expect((await used()).dailySpend).toBe(200);
    crashing.recover();
    await usage.release('A:1');
    await usage.release('A:1');
    expect(await used()).toEqual({ dailyTransactionCount: 1, dailySpend: 200, monthlySpend: 200 });
  });
});

test('racing payments, some refused: a later reservation removes each in-flight key; counts stay exact', async () => {
  const { store, reserve, used } = setup();
  const limits = { dailyLimit: 2_000 };
  const raced = await Promise.all(Array.from({ length: 30 }, (_, i) => reserve(`A:racer-${i}`, 100, { limits })));
  expect(raced.filter((r) => r === null)).toHaveLength(20);
  expect(await reserve('A:last', 0, { limits })).toBeNull();
  expect(await used()).toEqual({ dailyTransactionCount: 21, dailySpend: 2_000, monthlySpend: 2_000 });
  const pending = (await store.collection(AGENT_USAGE_COLLECTION).findOne({ _id: `agent/${AGENT}/${MONTH}` }))
    ?.pending as Record<string, number>;
  expect(Object.keys(pending).map((k) => Buffer.from(k, 'base64url').toString())).toEqual(['A:last']);
});

test('a reservation of a new action id looks for no earlier one, and counts exactly as any other', async () => {
  const { store, usage, used } = setup();
  const lookups = jest.spyOn(store.collection(AGENT_USAGE_RESERVATIONS_COLLECTION), 'findOne');
  const fresh = (actionId: string, amount: number) =>
    usage.reserve({ agentId: AGENT, actionId, day: DAY, month: MONTH, amount, limits: LIMITS, fresh: true });
  expect(await fresh('A:1', 600)).toBeNull();
  expect(await fresh('A:2', 500)).toMatchObject({ dailySpend: 600 });
  expect(lookups).not.toHaveBeenCalled();
  expect(await used()).toEqual({ dailyTransactionCount: 1, dailySpend: 600, monthlySpend: 600 });
  await usage.release('A:1');
  expect(await used()).toEqual({ dailyTransactionCount: 0, dailySpend: 0, monthlySpend: 0 });
});
