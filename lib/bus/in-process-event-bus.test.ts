import { createLogger } from '../log';
import type { DomainEvent } from './event-bus';
import { describeEventBusContract, event, settle, sleep, waitFor } from './event-bus.contract';
import { createInProcessEventBus } from './in-process-event-bus';

const fastRetry = { initialMs: 5, maxMs: 20 };

describeEventBusContract('in-process', () => createInProcessEventBus({ logger: createLogger({ write: () => undefined }), retry: fastRetry }));

describe('in-process event bus', () => {
  it('closing with events queued for a group whose subscriber left logs one line for the group, with the count', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger({ level: 'error', write: (line) => void lines.push(JSON.parse(line)) });
    const bus = createInProcessEventBus({ logger, retry: fastRetry });
    const subscription = await bus.subscribe({ topic: 't', group: 'g', handler: async () => undefined });
    await subscription.close();
    await bus.publish('t', [event('a', 1), event('b', 2), event('c', 3)]);
    await bus.close();
    expect(lines.map(({ msg, topic, group, count }) => ({ msg, topic, group, count }))).toEqual([
      { msg: 'events not delivered: their group had no subscriber left when the bus closed', topic: 't', group: 'g', count: 3 },
    ]);
  });

  it('returns from publish before any handler runs', async () => {
    const bus = createInProcessEventBus({ retry: fastRetry });
    let ran = false;
    await bus.subscribe({ topic: 't', group: 'g', handler: async () => void (ran = true) });
    await bus.publish('t', [event('a', 1)]);
    await Promise.resolve();
    expect(ran).toBe(false);
    await waitFor(() => ran);
    await bus.close();
  });

  it('gives up on an event after the bounded attempts, logs it and moves on', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger({ write: (line) => void lines.push(JSON.parse(line)) });
    const bus = createInProcessEventBus({ logger, retry: { ...fastRetry, attempts: 4 } });
    const attempts: number[] = [];
    const handled: number[] = [];
    await bus.subscribe({
      topic: 't', group: 'g',
      handler: async (e) => {
        attempts.push(e.version);
        if (e.version === 1) throw new Error('permanent');
        handled.push(e.version);
      },
    });
    const poison = event('a', 1);
    await bus.publish('t', [poison, event('a', 2)]);

    await waitFor(() => handled.length === 1);
    expect(attempts).toEqual([1, 1, 1, 1, 2]);
    expect(lines.filter((l) => l.level === 'warn').map((l) => l.attempt)).toEqual([1, 2, 3]);
    expect(lines.filter((l) => l.level === 'error')).toEqual([
      expect.objectContaining({ msg: 'event handler failed; giving up on this event', eventId: poison.id, group: 'g', attempt: 4 }),
    ]);
    await bus.close();
  });

  it('keeps events for a group whose members all left, until one subscribes again', async () => {
    const bus = createInProcessEventBus({ retry: fastRetry });
    const first = await bus.subscribe({ topic: 't', group: 'g', handler: async () => undefined });
    await first.close();
    await bus.publish('t', [event('a', 1)]);
    const received: DomainEvent[] = [];
    await bus.subscribe({ topic: 't', group: 'g', handler: async (e) => void received.push(e) });
    await waitFor(() => received.length === 1);
    await bus.close();
  });

  it('stops delivering to a closed subscription; the rest of its group takes over', async () => {
    const bus = createInProcessEventBus({ retry: fastRetry });
    const a: number[] = [];
    const b: number[] = [];
    const subA = await bus.subscribe({ topic: 't', group: 'g', handler: async (e) => void a.push(e.version) });
    await bus.subscribe({ topic: 't', group: 'g', handler: async (e) => void b.push(e.version) });
    await subA.close();
    await bus.publish('t', [event('x', 1), event('y', 2), event('z', 3)]);
    await waitFor(() => b.length === 3);
    await settle();
    expect(a).toEqual([]);
    await bus.close();
  });

  it('hands each delivery its own copy of the event', async () => {
    const bus = createInProcessEventBus({ retry: fastRetry });
    const seen: unknown[] = [];
    const mutate = async (e: DomainEvent) => {
      seen.push(e.data.n);
      e.data.n = 'changed';
    };
    await bus.subscribe({ topic: 't', group: 'g1', handler: mutate });
    await bus.subscribe({ topic: 't', group: 'g2', handler: mutate });
    const original = event('a', 1, { n: 1 });
    await bus.publish('t', [original]);
    await waitFor(() => seen.length === 2);
    expect(seen).toEqual([1, 1]);
    expect(original.data.n).toBe(1);
    await bus.close();
  });

  it('drains queued deliveries on close', async () => {
    const bus = createInProcessEventBus({ retry: fastRetry });
    const handled: number[] = [];
    await bus.subscribe({ topic: 't', group: 'g', handler: async (e) => { await sleep(5); handled.push(e.version); } });
    await bus.publish('t', [1, 2, 3, 4, 5].map((v) => event('a', v)));
    await bus.close();
    expect(handled).toEqual([1, 2, 3, 4, 5]);
  });
});
