import { context, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { randomUUID } from 'node:crypto';
import { startTelemetry } from '../telemetry';
import type { DomainEvent, EventBus } from './event-bus';
import { newEvent } from './event-factory';
import { activeTraceparent } from './event-trace-context';

/**
 * What every EventBus adapter must do, run against each of them. Each test uses its own topic
 * and groups, so a shared broker carries no state from one test into the next.
 */
export function describeEventBusContract(name: string, makeBus: () => EventBus | Promise<EventBus>): void {
  describe(`EventBus contract: ${name}`, () => {
    let bus: EventBus;
    beforeEach(async () => {
      bus = await makeBus();
    });
    afterEach(async () => {
      await bus.close();
    });

    it('delivers events intact, from the beginning when asked', async () => {
      const topic = uniqueName('deliver');
      const before = event('a-1', 1, { nested: { amount: '100', list: [1, 2] } });
      const after = event('a-1', 2);
      await bus.publish(topic, [before]);
      const received: DomainEvent[] = [];
      await bus.subscribe({
        topic,
        group: uniqueName('g'),
        fromBeginning: true,
        handler: async (e) => void received.push(e),
      });
      await bus.publish(topic, [after]);

      await waitFor(() => received.length >= 2);
      expect(received).toEqual([before, after]);
    });

    it('gives each group every event once, shared among the members of a group', async () => {
      const topic = uniqueName('groups');
      const shared = uniqueName('shared');
      const first: string[] = [];
      const second: string[] = [];
      const other: string[] = [];
      const record = (into: string[]) => async (e: DomainEvent) => void into.push(e.id);
      await Promise.all([
        bus.subscribe({ topic, group: shared, fromBeginning: true, handler: record(first) }),
        bus.subscribe({ topic, group: shared, fromBeginning: true, handler: record(second) }),
        bus.subscribe({ topic, group: uniqueName('other'), fromBeginning: true, handler: record(other) }),
      ]);
      const events = Array.from({ length: 12 }, (_, i) => event(`agg-${i}`, 1));
      await bus.publish(topic, events);

      const ids = events.map((e) => e.id).sort();
      await waitFor(() => other.length >= ids.length && first.length + second.length >= ids.length);
      await settle();
      expect([...other].sort()).toEqual(ids);
      expect([...first, ...second].sort()).toEqual(ids);
      expect(first.length).toBeGreaterThan(0);
      expect(second.length).toBeGreaterThan(0);
    });

    it('retries a failing handler without losing or reordering events', async () => {
      const topic = uniqueName('retry');
      const attempts: string[] = [];
      const handled: string[] = [];
      let failuresLeft = 2;
      await bus.subscribe({
        topic,
        group: uniqueName('g'),
        fromBeginning: true,
        handler: async (e) => {
          attempts.push(e.data.label as string);
          if (e.data.label === 'x' && failuresLeft-- > 0) throw new Error('transient');
          handled.push(e.data.label as string);
        },
      });
      await bus.publish(topic, [event('same', 1, { label: 'x' }), event('same', 2, { label: 'y' })]);

      await waitFor(() => handled.length >= 2);
      expect(handled).toEqual(['x', 'y']);
      expect(attempts).toEqual(['x', 'x', 'x', 'y']);
    });

    it('keeps the order of each aggregate', async () => {
      const topic = uniqueName('order');
      const seen = new Map<string, number[]>();
      await bus.subscribe({
        topic,
        group: uniqueName('g'),
        fromBeginning: true,
        handler: async (e) => {
          await sleep(Math.random() * 3);
          seen.set(e.aggregateId, [...(seen.get(e.aggregateId) ?? []), e.data.seq as number]);
        },
      });
      const aggregates = ['o-1', 'o-2', 'o-3'];
      for (let seq = 0; seq < 10; seq += 2) {
        await bus.publish(topic, aggregates.flatMap((a) => [event(a, 1, { seq }), event(a, 1, { seq: seq + 1 })]));
      }

      const count = () => [...seen.values()].reduce((n, list) => n + list.length, 0);
      await waitFor(() => count() >= 30);
      for (const a of aggregates) expect(seen.get(a)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    });

    it('carries the trace context to the handler', async () => {
      startTelemetry({ serviceName: 'event-bus-contract', env: {}, trackContext: true }); // installs the W3C propagator
      const topic = uniqueName('trace');
      const traceId = randomUUID().replace(/-/g, '');
      const span = trace.wrapSpanContext({ traceId, spanId: traceId.slice(0, 16), traceFlags: TraceFlags.SAMPLED });
      const published = context.with(trace.setSpan(ROOT_CONTEXT, span), () => event('t-1', 1));
      expect(published.traceparent).toBe(`00-${traceId}-${traceId.slice(0, 16)}-01`);

      const inHandler: Array<{ traceparent?: string; active?: string }> = [];
      await bus.subscribe({
        topic,
        group: uniqueName('g'),
        fromBeginning: true,
        handler: async (e) => void inHandler.push({ traceparent: e.traceparent, active: activeTraceparent() }),
      });
      await bus.publish(topic, [published, event('t-1', 2)]);

      await waitFor(() => inHandler.length >= 2);
      expect(inHandler).toEqual([{ traceparent: published.traceparent, active: published.traceparent }, {
        traceparent: undefined,
        active: undefined,
      }]);
    });

    it('waits for in-flight handlers on close, then refuses to publish', async () => {
      const topic = uniqueName('close');
      let started = false;
      let finished = false;
      await bus.subscribe({
        topic,
        group: uniqueName('g'),
        fromBeginning: true,
        handler: async () => {
          started = true;
          await sleep(300);
          finished = true;
        },
      });
      await bus.publish(topic, [event('c-1', 1)]);
      await waitFor(() => started);

      await bus.close();
      expect(finished).toBe(true);
      await expect(bus.publish(topic, [event('c-1', 2)])).rejects.toThrow();
    });
  });
}

export function event(aggregateId: string, version: number, data: Record<string, unknown> = {}): DomainEvent {
  return newEvent({
    type: 'TEST.HAPPENED',
    version,
    platformId: 'Platform:00000000-0000-4000-8000-000000000000',
    aggregateId,
    data,
  });
}

export function uniqueName(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

export async function waitFor(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(20);
  }
}

/** Gives a duplicate or late delivery the chance to show up before asserting exact counts. */
export const settle = () => sleep(300);

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
