import { createLogger } from '../log';
import { createEmbeddedDocumentStore } from '../store/embedded-document-store';
import type { DocumentCollection, DocumentStore } from '../store/document-store';
import type { DomainEvent, EventBus } from './event-bus';
import { event, waitFor } from './event-bus.contract';
import { createIdempotentHandler } from './inbox';
import { createInProcessEventBus } from './in-process-event-bus';
import { createOutboxRelay, withEvents, withInitialEvents } from './outbox';
import { createLease, LEASES_COLLECTION } from '../runtime/lease';

const quiet = createLogger({ write: () => undefined });

describe('withEvents', () => {
  it('adds the events to $push, keeping the push that is already there', () => {
    const [a, b, c] = [event('x', 1), event('x', 2), event('x', 3)];
    expect(withEvents({ $set: { s: 1 }, $push: { log: 'l', _outbox: a } }, [b, c])).toEqual({
      $set: { s: 1 },
      $push: { log: 'l', _outbox: { $each: [a, b, c] } },
    });
    expect(withEvents({ $push: { _outbox: { $each: [a] } } }, [b])).toEqual({ $push: { _outbox: { $each: [a, b] } } });
    expect(withEvents({ $inc: { n: 1 } }, [a])).toEqual({ $inc: { n: 1 }, $push: { _outbox: { $each: [a] } } });
  });

  it('leaves an update without events unchanged and refuses replacement documents', () => {
    const update = { $set: { s: 1 } };
    expect(withEvents(update, [])).toBe(update);
    expect(() => withEvents({ s: 1 }, [event('x', 1)])).toThrow(TypeError);
  });
});

describe('withInitialEvents', () => {
  it('puts the events in the new document', () => {
    const a = event('x', 1);
    expect(withInitialEvents({ _id: 'Customer:1', name: 'n' }, [a])).toEqual({
      _id: 'Customer:1',
      name: 'n',
      _outbox: [a],
    });
  });
});

describe('outbox relay', () => {
  let store: DocumentStore;
  let customers: DocumentCollection;
  let bus: EventBus;
  let received: DomainEvent[];

  beforeEach(async () => {
    store = createEmbeddedDocumentStore();
    customers = store.collection('customers');
    bus = createInProcessEventBus({ logger: quiet, retry: { initialMs: 1, maxMs: 5 } });
    received = [];
    await bus.subscribe({ topic: 'customers', group: 'test', handler: async (e) => void received.push(e) });
  });
  afterEach(async () => {
    await bus.close();
    await store.close();
  });

  it('writes a state change and its events in one conditional update, or neither', async () => {
    await customers.insertOne(withInitialEvents({ _id: 'Customer:1', status: 'PENDING' }, [event('Customer:1', 1)]));
    const approved = event('Customer:1', 2);
    const approve = () =>
      customers.updateOne(
        { _id: 'Customer:1', status: 'PENDING' },
        withEvents({ $set: { status: 'APPROVED' } }, [approved]),
      );

    expect((await approve()).modifiedCount).toBe(1);
    expect((await approve()).modifiedCount).toBe(0); // lost race: no state change and no second event
    const doc = await customers.findOne({ _id: 'Customer:1' });
    expect(doc?.status).toBe('APPROVED');
    expect((doc?._outbox as DomainEvent[]).map((e) => e.version)).toEqual([1, 2]);
  });

  it('publishes pending events in order and removes exactly those', async () => {
    const first = [event('Customer:1', 1), event('Customer:1', 2)];
    const second = [event('Customer:2', 1)];
    await customers.insertOne(withInitialEvents({ _id: 'Customer:1' }, first));
    await customers.insertOne(withInitialEvents({ _id: 'Customer:2' }, second));
    await customers.insertOne({ _id: 'Customer:3' });
    const relay = createOutboxRelay({ collections: [customers], bus, topic: 'customers', logger: quiet });

    expect(await relay.flush()).toBe(3);
    await waitFor(() => received.length === 3);
    expect(received.filter((e) => e.aggregateId === 'Customer:1')).toEqual(first);
    expect(await customers.countDocuments({ '_outbox.0': { $exists: true } })).toBe(0);
    expect(await relay.flush()).toBe(0);
  });

  it('with several replicas only the lease holder relays; another takes over when it dies holding it', async () => {
    const lease = (holder: string) =>
      createLease({
        collection: store.collection(LEASES_COLLECTION),
        name: 'outbox relay customers',
        holder,
        ttlMs: 1_500,
      });
    // A replica that took the lease and died: it never renews or gives it back.
    expect(await lease('dead').acquire()).toBe(true);
    const relays = ['a', 'b', 'c'].map((holder) =>
      createOutboxRelay({
        collections: [customers],
        bus,
        topic: 'customers',
        logger: quiet,
        intervalMs: 5,
        lease: lease(holder),
      })
    );
    for (let n = 1; n <= 20; n++) {
      await customers.insertOne(withInitialEvents({ _id: `Customer:${n}` }, [event(`Customer:${n}`, 1)]));
    }
    expect(await Promise.all(relays.map((r) => r.flush()))).toEqual([0, 0, 0]); // the dead replica's lease still holds
    relays.forEach((r) => r.start());
    for (let n = 21; n <= 40; n++) {
      await customers.insertOne(withInitialEvents({ _id: `Customer:${n}` }, [event(`Customer:${n}`, 1)]));
    }
    await waitFor(() => received.length >= 40, 10_000);
    await Promise.all(relays.map((r) => r.stop()));
    expect(received).toHaveLength(40);
    expect(new Set(received.map((e) => e.id)).size).toBe(40);
    expect(await customers.countDocuments({ '_outbox.0': { $exists: true } })).toBe(0);
  });

  it('keeps an event written while the relay was publishing', async () => {
    await customers.insertOne(withInitialEvents({ _id: 'Customer:1' }, [event('Customer:1', 1)]));
    const late = event('Customer:1', 2);
    const racingBus: EventBus = {
      ...bus,
      async publish(topic, events) {
        if (events[0].version === 1) {
          await customers.updateOne({ _id: 'Customer:1' }, withEvents({ $set: { s: 1 } }, [late]));
        }
        await bus.publish(topic, events);
      },
    };
    const relay = createOutboxRelay({ collections: [customers], bus: racingBus, topic: 'customers', logger: quiet });

    expect(await relay.flush()).toBe(2); // the late one went out in the next pass, not lost by the $pull
    await waitFor(() => received.length === 2);
    expect(received.map((e) => e.version)).toEqual([1, 2]);
  });

  it('removes what one pass published from all its documents by one write, leaving events added since', async () => {
    for (let i = 1; i <= 5; i++) {
      await customers.insertOne(withInitialEvents({ _id: `Customer:${i}` }, [event(`Customer:${i}`, 1)]));
    }
    const writes = { one: 0, many: 0 };
    const counted = new Proxy(customers, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (prop === 'updateOne') writes.one++;
        if (prop === 'updateMany') writes.many++;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const late = event('Customer:1', 2);
    const slowBus: EventBus = {
      ...bus,
      async publish(topic, events) {
        // The entity gains an event while its first is being published.
        if (events[0].aggregateId === 'Customer:1' && events[0].version === 1) {
          await customers.updateOne({ _id: 'Customer:1' }, withEvents({ $set: { seen: true } }, [late]));
        }
        await bus.publish(topic, events);
      },
    };
    const relay = createOutboxRelay({ collections: [counted], bus: slowBus, topic: 'customers', logger: quiet });
    expect(await relay.flush()).toBe(6);
    expect(writes).toEqual({ one: 0, many: 2 }); // one per pass: the first five, then the late one
    await waitFor(() => received.length === 6);
    expect(await customers.countDocuments({ '_outbox.0': { $exists: true } })).toBe(0);
  });

  it('re-publishes after a crash between publish and removal; an idempotent consumer applies once', async () => {
    const applied: string[] = [];
    const inbox = store.collection('inbox');
    await bus.subscribe({
      topic: 'customers',
      group: 'ledger',
      handler: createIdempotentHandler({
        collection: inbox,
        group: 'ledger',
        handler: async (e) => void applied.push(e.id),
      }),
    });
    const created = event('Customer:1', 1);
    await customers.insertOne(withInitialEvents({ _id: 'Customer:1' }, [created]));
    const crashing = createOutboxRelay({
      collections: [crashOnPull(customers)],
      bus,
      topic: 'customers',
      logger: quiet,
    });

    await expect(crashing.flush()).rejects.toThrow('crash');
    const restarted = createOutboxRelay({ collections: [customers], bus, topic: 'customers', logger: quiet });
    expect(await restarted.flush()).toBe(1);

    await waitFor(() => received.length === 2);
    expect(received.map((e) => e.id)).toEqual([created.id, created.id]);
    await bus.close();
    expect(applied).toEqual([created.id]);
  });

  it('never loses events while the bus is down: the relay loop retries', async () => {
    const created = event('Customer:1', 1);
    await customers.insertOne(withInitialEvents({ _id: 'Customer:1' }, [created]));
    let down = true;
    const flakyBus: EventBus = {
      ...bus,
      async publish(topic, events) {
        if (down) throw new Error('broker unavailable');
        await bus.publish(topic, events);
      },
    };
    const relay = createOutboxRelay({
      collections: [customers],
      bus: flakyBus,
      topic: 'customers',
      intervalMs: 10,
      logger: quiet,
    });

    await expect(relay.flush()).rejects.toThrow('broker unavailable');
    relay.start();
    await new Promise((r) => setTimeout(r, 50));
    expect(await customers.countDocuments({ '_outbox.0': { $exists: true } })).toBe(1);
    down = false;
    await waitFor(() => received.length === 1);
    await relay.stop();
    expect(received).toEqual([created]);
    expect(await customers.countDocuments({ '_outbox.0': { $exists: true } })).toBe(0);
  });

  it('a collection whose events cannot be published does not hold back the events of the others', async () => {
    const accounts = store.collection('accounts');
    const stuck = event('InternalAccount:1', 1);
    const behind = event('Card:1', 1);
    await accounts.insertOne(withInitialEvents({ _id: 'InternalAccount:1' }, [stuck]));
    await customers.insertOne(withInitialEvents({ _id: 'Card:1' }, [behind]));
    const refusing: EventBus = {
      ...bus,
      async publish(topic, events) {
        if (events.some((e) => e.id === stuck.id)) throw new Error('refused');
        await bus.publish(topic, events);
      },
    };
    const relay = createOutboxRelay({
      collections: [accounts, customers],
      bus: refusing,
      topic: 'customers',
      logger: quiet,
    });
    await expect(relay.flush()).rejects.toThrow('refused');
    expect(received).toEqual([behind]);
    expect(await accounts.countDocuments({ '_outbox.0': { $exists: true } })).toBe(1);
    expect(await customers.countDocuments({ '_outbox.0': { $exists: true } })).toBe(0);
  });

  it('stops flowing once publishing has failed for stallMs, and flows again after a drain succeeds', async () => {
    await customers.insertOne(withInitialEvents({ _id: 'Customer:1' }, [event('Customer:1', 1)]));
    let down = true;
    const flakyBus: EventBus = {
      ...bus,
      publish: async (
        topic,
        events,
      ) => (down ? Promise.reject(new Error('broker unavailable')) : bus.publish(topic, events)),
    };
    const relay = createOutboxRelay({
      collections: [customers],
      bus: flakyBus,
      topic: 'customers',
      intervalMs: 10,
      stallMs: 200,
      logger: quiet,
    });

    relay.start();
    await new Promise((r) => setTimeout(r, 50));
    expect(relay.isFlowing()).toBe(true); // failing, but not for long yet
    await waitFor(() => !relay.isFlowing());
    down = false;
    await waitFor(() => received.length === 1);
    await waitFor(() => relay.isFlowing());
    await relay.stop();
  });

  it('stops flowing while one publish hangs', async () => {
    await customers.insertOne(withInitialEvents({ _id: 'Customer:1' }, [event('Customer:1', 1)]));
    let release!: () => void;
    const hanging = new Promise<void>((r) => (release = r));
    const stuckBus: EventBus = {
      ...bus,
      publish: async (topic, events) => {
        await hanging;
        await bus.publish(topic, events);
      },
    };
    const relay = createOutboxRelay({
      collections: [customers],
      bus: stuckBus,
      topic: 'customers',
      intervalMs: 10,
      stallMs: 200,
      logger: quiet,
    });

    relay.start();
    await waitFor(() => !relay.isFlowing());
    release();
    await waitFor(() => received.length === 1 && relay.isFlowing());
    await relay.stop();
  });
});

function crashOnPull(collection: DocumentCollection): DocumentCollection {
  return new Proxy(collection, {
    get(target, prop, receiver) {
      if (prop === 'updateOne' || prop === 'updateMany') {
        return async () => {
          throw new Error('crash');
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
