import { MessageChannel } from 'node:worker_threads';
import { createLogger } from '../log';
import type { DomainEvent, EventBus } from './event-bus';
import { describeEventBusContract, event, sleep } from './event-bus.contract';
import { connectEventBus, serveEventBus } from './cross-thread-event-bus';
import { createInProcessEventBus } from './in-process-event-bus';

const quiet = createLogger({ write: () => undefined });
const fastRetry = { initialMs: 5, maxMs: 20 };

/** A hub and a thread's end of it; MessagePorts behave alike within a thread and across threads. */
function hubWithThreads(threads: number) {
  const hub = createInProcessEventBus({ logger: quiet, retry: fastRetry });
  const ends = Array.from({ length: threads }, () => {
    const channel = new MessageChannel();
    const served = serveEventBus(channel.port1, hub);
    return { bus: connectEventBus(channel.port2), served };
  });
  return { hub, ends };
}

describeEventBusContract('cross-thread (hub over a MessagePort)', () => {
  const { hub, ends: [end] } = hubWithThreads(1);
  return {
    ...end.bus,
    close: async () => {
      await end.bus.close();
      await hub.close();
    },
  } satisfies EventBus;
});

describe('cross-thread event bus', () => {
  it('a group on two threads takes each event once; a publish from a third thread waits for both groups', async () => {
    const { hub, ends: [a, b, publisher] } = hubWithThreads(3);
    const got: Array<[string, number]> = [];
    const record = (name: string) => async (e: DomainEvent) => void got.push([name, e.version]);
    await a.bus.subscribe({ topic: 't', group: 'shared', handler: record('a') });
    await b.bus.subscribe({ topic: 't', group: 'shared', handler: record('b') });
    await a.bus.subscribe({ topic: 't', group: 'own', handler: record('own') });
    await publisher.bus.publish('t', [event('x', 1), event('y', 2), event('z', 3), event('w', 4)]);
    expect(got.filter(([name]) => name === 'own').map(([, v]) => v).sort()).toEqual([1, 2, 3, 4]);
    const shared = got.filter(([name]) => name !== 'own');
    expect(shared.map(([, v]) => v).sort()).toEqual([1, 2, 3, 4]);
    expect(new Set(shared.map(([name]) => name))).toEqual(new Set(['a', 'b']));
    for (const end of [a, b, publisher]) await end.bus.close();
    await hub.close();
  });

  it(
    'a handler that fails on its thread is retried by the hub, '
      + 'and its error refuses the publish when every attempt failed',
    async () => {
      const hub = createInProcessEventBus({ logger: quiet, retry: { ...fastRetry, attempts: 3 } });
      const channel = new MessageChannel();
      serveEventBus(channel.port1, hub);
      const bus = connectEventBus(channel.port2);
      let calls = 0;
      await bus.subscribe({
        topic: 't',
        group: 'g',
        handler: async () => {
          calls += 1;
          throw new Error('refused here');
        },
      });
      await expect(bus.publish('t', [event('a', 1)])).rejects.toThrow('refused here');
      expect(calls).toBe(3);
      await bus.close();
      await hub.close();
    },
  );

  it('events of one aggregate reach a thread in order', async () => {
    const { hub, ends: [subscriber, publisher] } = hubWithThreads(2);
    const seen: number[] = [];
    await subscriber.bus.subscribe({
      topic: 't',
      group: 'g',
      handler: async (e) => {
        await new Promise((r) => setTimeout(r, e.version % 2 ? 5 : 0));
        seen.push(e.version);
      },
    });
    await Promise.all([1, 2, 3, 4, 5].map((v) => publisher.bus.publish('t', [event('same', v)])));
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    await subscriber.bus.close();
    await publisher.bus.close();
    await hub.close();
  });

  it('when a thread goes away its members leave their groups: the publisher keeps events no one can take', async () => {
    const { hub, ends: [gone, publisher] } = hubWithThreads(2);
    await gone.bus.subscribe({ topic: 't', group: 'g', handler: async () => undefined });
    gone.served.close();
    await sleep(50); // the port's close reaches the hub
    await expect(publisher.bus.publish('t', [event('a', 1)])).rejects.toThrow(/no subscriber in g for t/);
    await publisher.bus.close();
    await hub.close();
  });
});
