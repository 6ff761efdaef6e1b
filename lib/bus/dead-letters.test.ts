import { AppError } from '../errors';
import { startMetrics, type MetricsEndpoint } from '../metrics';
import { createLogger } from '../log';
import { createEmbeddedDocumentStore } from '../store/embedded-document-store';
import type { DocumentStore } from '../store/document-store';
import type { DomainEvent, EventBus } from './event-bus';
import { createDeadLetters, DEAD_LETTERS_COLLECTION, type DeadLetters } from './dead-letters';
import { createInProcessEventBus } from './in-process-event-bus';

const TOPIC = 'accounts.events.v1';
const GROUP = 'notifications-webhooks.accounts.events.v1';
const quiet = createLogger({ level: 'error', write: () => undefined });

let metrics: MetricsEndpoint;
let store: DocumentStore;
let bus: EventBus;
let deadLetters: DeadLetters;

beforeAll(async () => {
  metrics = await startMetrics({ serviceName: 'dead-letters-test', port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await metrics.stop();
});
beforeEach(async () => {
  store = createEmbeddedDocumentStore();
  bus = createInProcessEventBus({ logger: quiet, retry: { initialMs: 1, maxMs: 2 } });
  deadLetters = createDeadLetters({
    store,
    logger: quiet,
    settings: { attempts: 3, backoff: { initialMs: 1, maxMs: 5 } },
  });
  await deadLetters.prepare();
});
afterEach(async () => {
  deadLetters.stop();
  await bus.close();
  await store.close();
});

let sequence = 0;
/** One stream: every event is about the same aggregate, so the bus delivers them one after another. */
const event = (type: string, data: Record<string, unknown> = {}): DomainEvent => ({
  id: `Event:${++sequence}`,
  type,
  version: 1,
  occurredAt: new Date().toISOString(),
  platformId: 'Platform:1',
  aggregateId: 'InternalAccount:1',
  data,
});

async function deadLettered(type: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${metrics.port}/metrics`)).text();
  const line = text.split('\n').find((l) =>
    l.startsWith('events_dead_lettered_total{') && l.includes(`type="${type}"`) && l.includes(`group="${GROUP}"`)
  );
  return line ? Number(line.split(' ').pop()) : 0;
}

test('a poisoned event is dead-lettered after its attempts, with its metric; the events behind it go on', async () => {
  const delivered: string[] = [];
  let tries = 0;
  const handler = async (e: DomainEvent) => {
    if (e.data.poison) {
      tries++;
      throw new Error('Value is larger than Number.MAX_SAFE_INTEGER');
    }
    delivered.push(e.type);
  };
  await bus.subscribe({
    topic: TOPIC,
    group: GROUP,
    handler: deadLetters.guard({ topic: TOPIC, group: GROUP, handler }),
  });
  const before = await deadLettered('INTERNAL_ACCOUNT.BALANCE_UPDATED');

  const poisoned = event('INTERNAL_ACCOUNT.BALANCE_UPDATED', { poison: true });
  const behind = [event('CARD.CREATED'), event('CARD_TRANSACTION.SETTLED'), event('INTERNAL_ACCOUNT.BALANCE_UPDATED')];
  // resolves once the group handled all five
  await bus.publish(TOPIC, [event('CUSTOMER.CREATED'), poisoned, ...behind]);

  expect(delivered).toEqual([
    'CUSTOMER.CREATED',
    'CARD.CREATED',
    'CARD_TRANSACTION.SETTLED',
    'INTERNAL_ACCOUNT.BALANCE_UPDATED',
  ]);
  expect(tries).toBe(3);
  const [letter] = await deadLetters.list();
  expect(letter).toMatchObject({
    _id: `${GROUP}:${poisoned.id}`,
    topic: TOPIC,
    group: GROUP,
    status: 'DEAD',
    attempts: 3,
  });
  expect(letter.event).toEqual(poisoned);
  expect(letter.lastError).toContain('MAX_SAFE_INTEGER');
  expect(await deadLettered('INTERNAL_ACCOUNT.BALANCE_UPDATED')).toBe(before + 1);

  // The same event delivered again (at-least-once) stays one letter.
  await bus.publish(TOPIC, [poisoned]);
  expect(await store.collection(DEAD_LETTERS_COLLECTION).countDocuments({})).toBe(1);
  expect((await deadLetters.get(letter._id)).attempts).toBe(6);
});

test(
  'an operator replays a dead letter: it stays dead while '
    + 'the handler still fails, and is REPLAYED once it succeeds',
  async () => {
    let fixed = false;
    const applied: string[] = [];
    const handler = async (e: DomainEvent) => {
      if (!fixed) throw new Error('accounts unavailable');
      applied.push(e.id);
    };
    await bus.subscribe({
      topic: TOPIC,
      group: GROUP,
      handler: deadLetters.guard({ topic: TOPIC, group: GROUP, handler }),
    });
    const poisoned = event('INTERNAL_ACCOUNT.BALANCE_UPDATED');
    await bus.publish(TOPIC, [poisoned]);
    const id = `${GROUP}:${poisoned.id}`;

    expect(await deadLetters.replay(id)).toMatchObject({
      status: 'DEAD',
      attempts: 4,
      lastError: 'accounts unavailable',
    });
    expect(await deadLetters.get(id)).toMatchObject({ status: 'DEAD', attempts: 4 });

    fixed = true;
    expect(await deadLetters.replay(id)).toMatchObject({ status: 'REPLAYED', attempts: 5 });
    expect(applied).toEqual([poisoned.id]);
    expect(await deadLetters.list({ status: 'DEAD' })).toEqual([]);
    expect((await deadLetters.list({ status: 'REPLAYED' })).map((l) => l._id)).toEqual([id]);
    await expect(deadLetters.replay(id)).rejects.toMatchObject({ code: 'INVALID_STATE' });
    await expect(deadLetters.get(`${GROUP}:Event:none`)).rejects.toMatchObject({ code: 'REFERENCE_NOT_FOUND' });
  },
);

test('an event is not lost when its dead letter cannot be stored: the bus keeps it', async () => {
  await store.close(); // the store refuses every write from now on
  const handler = async () => {
    throw new Error('bad event');
  };
  await bus.subscribe({
    topic: TOPIC,
    group: GROUP,
    handler: deadLetters.guard({ topic: TOPIC, group: GROUP, handler }),
  });
  await expect(bus.publish(TOPIC, [event('CARD.CREATED')])).rejects.toThrow();
  store = createEmbeddedDocumentStore(); // for afterEach
});

test(
  'an outage (a peer UNAVAILABLE, the store full) goes back to '
    + 'the bus, which retries it: it says nothing about the event',
  async () => {
    let outageLeft = 4; // the in-process bus makes 5 attempts
    const applied: string[] = [];
    const handler = async (e: DomainEvent) => {
      if (outageLeft-- > 0) {
        throw new AppError(outageLeft % 2 ? 'UNAVAILABLE' : 'STORAGE_FULL', 'accounts is not reachable');
      }
      applied.push(e.id);
    };
    await bus.subscribe({
      topic: TOPIC,
      group: GROUP,
      handler: deadLetters.guard({ topic: TOPIC, group: GROUP, handler }),
    });
    const e = event('CARD.CREATED');
    await bus.publish(TOPIC, [e]);
    expect(applied).toEqual([e.id]);
    expect(await deadLetters.list()).toEqual([]);
  },
);
