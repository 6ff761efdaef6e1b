import { createLogger } from '../log';
import type { DomainEvent } from './event-bus';
import { describeEventBusContract, event, settle, sleep, waitFor } from './event-bus.contract';
import { createInProcessEventBus } from './in-process-event-bus';

const fastRetry = { initialMs: 5, maxMs: 20 };

describeEventBusContract(
  'in-process',
  () => createInProcessEventBus({ logger: createLogger({ write: () => undefined }), retry: fastRetry }),
);

describe('in-process event bus', () => {
  it(
    'refuses events for a group whose members all left, so the '
      + 'publisher keeps them, and delivers again once one subscribes',
    async () => {
      const bus = createInProcessEventBus({ retry: fastRetry });
      const first = await bus.subscribe({ topic: 't', group: 'g', handler: async () => undefined });
      await first.close();
      await expect(bus.publish('t', [event('a', 1)])).rejects.toThrow('no subscriber');
      const received: DomainEvent[] = [];
      await bus.subscribe({ topic: 't', group: 'g', handler: async (e) => void received.push(e) });
      await bus.publish('t', [event('a', 2)]);
      expect(received.map((e) => e.version)).toEqual([2]);
      await bus.close();
    },
  );

  it(
    'closing with deliveries still waiting for a member rejects '
      + 'their publish and logs one line per group, with the count',
    async () => {
      const lines: Array<Record<string, unknown>> = [];
      const logger = createLogger({ level: 'error', write: (line) => void lines.push(JSON.parse(line)) });
      const bus = createInProcessEventBus({ logger, retry: fastRetry });
      let release!: () => void;
      const blocked = new Promise<void>((resolve) => {
        release = resolve;
      });
      const subscription = await bus.subscribe({ topic: 't', group: 'g', handler: () => blocked });
      const published = bus.publish('t', [event('a', 1), event('a', 2), event('a', 3)]).then(
        () => 'published',
        (err: Error) => err.message,
      );
      await sleep(20);
      const left = subscription.close();
      release();
      await left;
      await bus.close();
      expect(await published).toMatch('the bus closed');
      expect(lines.map(({ msg, topic, group, count }) => ({ msg, topic, group, count }))).toEqual([
        {
          msg: 'events not delivered: their group had no subscriber left when the bus closed',
          topic: 't',
          group: 'g',
          count: 2,
        },
      ]);
    },
  );

  it("runs no handler inside publish's own turn; answers once the subscribed groups handled the events", async () => {
    const bus = createInProcessEventBus({ retry: fastRetry });
    const handled: string[] = [];
    await bus.subscribe({ topic: 't', group: 'g', handler: async (e) => void handled.push(`g:${e.version}`) });
    await bus.subscribe({ topic: 't', group: 'h', handler: async (e) => void handled.push(`h:${e.version}`) });
    const published = bus.publish('t', [event('a', 1), event('b', 2)]);
    expect(handled).toEqual([]);
    await published;
    expect(handled.sort()).toEqual(['g:1', 'g:2', 'h:1', 'h:2']);
    await bus.close();
  });

  it('rejects the publish of an event whose handler failed every attempt, logs it, delivers the next', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger({ write: (line) => void lines.push(JSON.parse(line)) });
    const bus = createInProcessEventBus({ logger, retry: { ...fastRetry, attempts: 4 } });
    const attempts: number[] = [];
    const handled: number[] = [];
    await bus.subscribe({
      topic: 't',
      group: 'g',
      handler: async (e) => {
        attempts.push(e.version);
        if (e.version === 1) throw new Error('permanent');
        handled.push(e.version);
      },
    });
    const poison = event('a', 1);
    await expect(bus.publish('t', [poison])).rejects.toThrow('permanent');
    await bus.publish('t', [event('a', 2)]);

    expect(handled).toEqual([2]);
    expect(attempts).toEqual([1, 1, 1, 1, 2]);
    expect(lines.filter((l) => l.level === 'warn').map((l) => l.attempt)).toEqual([1, 2, 3]);
    expect(lines.filter((l) => l.level === 'error')).toEqual([
      expect.objectContaining({
        msg: 'event handler failed; the publisher keeps the event to publish it again',
        eventId: poison.id,
        group: 'g',
        attempt: 4,
      }),
    ]);
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
    await bus.subscribe({
      topic: 't',
      group: 'g',
      handler: async (e) => {
        await sleep(5);
        handled.push(e.version);
      },
    });
    await bus.publish('t', [1, 2, 3, 4, 5].map((v) => event('a', v)));
    await bus.close();
    expect(handled).toEqual([1, 2, 3, 4, 5]);
  });
});
