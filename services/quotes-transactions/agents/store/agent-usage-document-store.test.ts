import { createEmbeddedDocumentStore } from '../../../../lib/store/embedded-document-store';
import type { DocumentStore } from '../../../../lib/store/document-store';
import type { UsageLimits } from '../app/agent-usage';
import { AgentActionExists } from '../app/agent-action-store';
import { createCrashingStore } from '../../test-fixtures/crashing-store';
import {
  AGENT_USAGE_COLLECTION,
  AGENT_USAGE_RESERVATIONS_COLLECTION,
  createAgentUsageDocumentStore,
} from './agent-usage-document-store';
import { AGENT_ACTIONS_COLLECTION, createAgentActionDocumentStore } from './agent-action-document-store';
import { createVolumeDocumentStore, VOLUMES_COLLECTION } from '../../payments/store/volume-document-store';

const AGENT = 'Agent:1';
const DAY = '2026-05-01';
const MONTH = '2026-05';
const LIMITS: UsageLimits = { dailyTransactionLimit: 3, dailyLimit: 1_000, monthlyLimit: 1_500 };
type Over = Partial<{ day: string; limits: UsageLimits; fresh: boolean; quote: string }>;

/** Reserves as an agent's submission does: counted, and recorded by inserting the action that carries it. */
const reserveOf =
  (store: DocumentStore, usage: ReturnType<typeof createAgentUsageDocumentStore>) =>
  (actionId: string, amount: number, over: Over = {}) =>
    usage.reserve({
      agentId: AGENT,
      actionId,
      day: over.day ?? DAY,
      month: MONTH,
      amount,
      limits: over.limits ?? LIMITS,
      ...(over.fresh ? { fresh: true } : {}),
      record: (usageReservation) =>
        createAgentActionDocumentStore(store).port.insert({
          id: actionId,
          platformId: 'Platform:1',
          agentId: AGENT,
          customerId: 'Customer:1',
          platformCustomerId: 'c-1',
          status: 'APPROVED',
          type: 'EXECUTE_QUOTE',
          ...(over.quote ? { quoteId: over.quote, quoteClaim: over.quote } : {}),
          usageReservation,
          createdAt: `${DAY}T12:00:00Z`,
          updatedAt: `${DAY}T12:00:00Z`,
        }, []),
    });

function setup(store: DocumentStore = createEmbeddedDocumentStore()) {
  const usage = createAgentUsageDocumentStore(store);
  return { store, usage, reserve: reserveOf(store, usage), used: (day = DAY) => usage.used(AGENT, day, MONTH) };
}

/** The actions whose keys are still in the month's document. */
async function pendingKeys(store: DocumentStore): Promise<string[]> {
  const pending = (await store.collection(AGENT_USAGE_COLLECTION).findOne({ _id: `agent/${AGENT}/${MONTH}` }))
    ?.pending as Record<string, number> | undefined;
  return Object.keys(pending ?? {}).map((k) => Buffer.from(k, 'base64url').toString());
}

test('one payment counts on the day and the month; a release gives it back once', async () => {
  const { usage, reserve, used } = setup();
  expect(await reserve('A:1', 400)).toBeNull();
  expect(await reserve('A:2', 100)).toBeNull();
  expect(await used()).toEqual({ dailyTransactionCount: 2, dailySpend: 500, monthlySpend: 500 });
  await usage.release('A:1');
  await usage.release('A:1');
  expect(await used()).toEqual({ dailyTransactionCount: 1, dailySpend: 100, monthlySpend: 100 });
  // Released: a late repeat finds its action and counts nothing.
  await expect(reserve('A:1', 400)).rejects.toThrow(AgentActionExists);
  expect((await used()).dailySpend).toBe(100);
});

test('each limit refuses with the usage that refused it, and counts nothing', async () => {
  const { store, reserve, used } = setup();
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
  // A refused action is not recorded: it may be asked again.
  expect(await store.collection(AGENT_ACTIONS_COLLECTION).countDocuments({ _id: 'A:2' })).toBe(0);
});

test('racing payments never pass a limit together; repeats of one payment count it once', async () => {
  const { reserve, used } = setup();
  const same = await Promise.allSettled(Array.from({ length: 10 }, () => reserve('A:same', 300)));
  expect(same.filter((r) => r.status === 'fulfilled' && r.value === null)).toHaveLength(1);
  expect(same.filter((r) => r.status === 'rejected' && r.reason instanceof AgentActionExists)).toHaveLength(9);
  const others = await Promise.all(
    Array.from({ length: 20 }, (_, i) => reserve(`A:racer-${i}`, 300, { limits: { dailyLimit: 1_000 } })),
  );
  expect(others.filter((r) => r === null)).toHaveLength(2);
  expect(await used()).toEqual({ dailyTransactionCount: 3, dailySpend: 900, monthlySpend: 900 });
});

test('counting is one write beside the action insert; the next one removes the key the previous one left', async () => {
  const { store, reserve } = setup();
  await reserve('A:1', 100);
  const writes = jest.spyOn(store.collection(AGENT_USAGE_COLLECTION), 'updateOne');
  const inserts = jest.spyOn(store.collection(AGENT_ACTIONS_COLLECTION), 'insertOne');
  const ownRecords = jest.spyOn(store.collection(AGENT_USAGE_RESERVATIONS_COLLECTION), 'insertOne');
  await reserve('A:2', 100);
  expect([writes.mock.calls.length, inserts.mock.calls.length, ownRecords.mock.calls.length]).toEqual([1, 1, 0]);
  expect(await pendingKeys(store)).toEqual(['A:2']);
  expect(await store.collection(AGENT_ACTIONS_COLLECTION).findOne({ _id: 'A:2' })).toMatchObject({
    usageReservation: { usage: `agent/${AGENT}/${MONTH}`, day: DAY, amount: 100, state: 'COUNTED' },
  });
});

test('an action that cannot be recorded (its quote is claimed) takes its count back', async () => {
  const { store, reserve, used } = setup();
  await createAgentActionDocumentStore(store).port.ensureIndexes();
  expect(await reserve('A:1', 300, { quote: 'Quote:1' })).toBeNull();
  await expect(reserve('A:2', 200, { quote: 'Quote:1' })).rejects.toThrow(AgentActionExists);
  await expect(reserve('A:3', 100, { quote: 'Quote:1', fresh: true })).rejects.toThrow(AgentActionExists);
  expect(await used()).toEqual({ dailyTransactionCount: 1, dailySpend: 300, monthlySpend: 300 });
  expect(await pendingKeys(store)).toEqual([]); // A:1's went with A:2's count; A:2's and A:3's with their own
  expect(await reserve('A:2', 200, { quote: 'Quote:2' })).toBeNull();
  expect(await used()).toEqual({ dailyTransactionCount: 2, dailySpend: 500, monthlySpend: 500 });
});

test('a reservation an earlier version recorded on its own counts as recorded, and is released once', async () => {
  const { store, usage, reserve, used } = setup();
  expect(await reserve('A:1', 100)).toBeNull();
  const usageOf = `agent/${AGENT}/${MONTH}`;
  await store.collection(AGENT_USAGE_COLLECTION).updateOne({ _id: usageOf }, {
    $inc: { monthSpend: 300, [`days.${DAY}.count`]: 1, [`days.${DAY}.spend`]: 300 },
  });
  await store.collection(AGENT_USAGE_RESERVATIONS_COLLECTION).insertOne({
    _id: 'A:old',
    usage: usageOf,
    actionId: 'A:old',
    day: DAY,
    amount: 300,
    state: 'COUNTED',
  });
  await expect(reserve('A:old', 300)).rejects.toThrow(AgentActionExists);
  expect(await used()).toEqual({ dailyTransactionCount: 2, dailySpend: 400, monthlySpend: 400 });
  await usage.release('A:old');
  await usage.release('A:old');
  expect(await used()).toEqual({ dailyTransactionCount: 1, dailySpend: 100, monthlySpend: 100 });
  expect(await store.collection(AGENT_USAGE_RESERVATIONS_COLLECTION).findOne({ _id: 'A:old' })).toMatchObject({
    state: 'RELEASED',
  });
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
    const crashing = createCrashingStore(inner, AGENT_ACTIONS_COLLECTION);
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
    const crashing = createCrashingStore(inner, AGENT_ACTIONS_COLLECTION);
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
  expect(await pendingKeys(store)).toEqual(['A:last']);
});

test('a reservation of a new action id looks for no earlier one, and counts exactly as any other', async () => {
  const { store, usage, reserve, used } = setup();
  const lookups = [
    jest.spyOn(store.collection(AGENT_ACTIONS_COLLECTION), 'countDocuments'),
    jest.spyOn(store.collection(AGENT_USAGE_RESERVATIONS_COLLECTION), 'countDocuments'),
  ];
  expect(await reserve('A:1', 600, { fresh: true })).toBeNull();
  expect(await reserve('A:2', 500, { fresh: true })).toMatchObject({ dailySpend: 600 });
  for (const lookup of lookups) expect(lookup).not.toHaveBeenCalled();
  expect(await used()).toEqual({ dailyTransactionCount: 1, dailySpend: 600, monthlySpend: 600 });
  await usage.release('A:1');
  expect(await used()).toEqual({ dailyTransactionCount: 0, dailySpend: 0, monthlySpend: 0 });
});
