import { createLogger, type Logger } from '../log';
import { createPeriodicTask } from '../runtime/periodic-task';
import type { Lease } from '../runtime/lease';
import { instruments, observeGauge } from '../metrics';
import type { Doc, DocumentCollection, IndexSpec, Update } from '../store/document-store';
import type { DomainEvent, EventBus } from './event-bus';

export { createEventFactory, newEvent, type NewEvent } from './event-factory';

/**
 * The transactional outbox for a store that is atomic per document: an entity document carries
 * its pending events in `_outbox`, written by the same update as the state change, and the relay
 * publishes them afterwards. Delivery is at-least-once (a crash between publish and removal
 * publishes again), so consumers de-duplicate by event id (see inbox.ts).
 */
export const OUTBOX_FIELD = '_outbox';

export type WithOutbox<T> = T & { _outbox: DomainEvent[] };

/** Adds `$push: {_outbox: {$each: events}}` to an update, keeping any `$push` it already has. */
export function withEvents(update: Update, events: DomainEvent[]): Update {
  if (Object.keys(update).some((key) => !key.startsWith('$'))) {
    throw new TypeError('withEvents needs an update made of operators ($set, $inc, ...), not a replacement document');
  }
  if (!events.length) return update;
  const push = (update.$push ?? {}) as Record<string, unknown>;
  const existing = push[OUTBOX_FIELD];
  const earlier = existing === undefined ? [] : isEach(existing) ? existing.$each : [existing];
  return { ...update, $push: { ...push, [OUTBOX_FIELD]: { $each: [...earlier, ...events] } } };
}

/** For inserts: the new document with its first events already pending. */
export function withInitialEvents<T extends Doc>(doc: T, events: DomainEvent[]): WithOutbox<T> {
  const pending = Array.isArray(doc[OUTBOX_FIELD]) ? (doc[OUTBOX_FIELD] as DomainEvent[]) : [];
  return { ...doc, [OUTBOX_FIELD]: [...pending, ...events] };
}

function isEach(value: unknown): value is { $each: unknown[] } {
  return typeof value === 'object' && value !== null && Array.isArray((value as { $each?: unknown }).$each);
}

export interface OutboxRelayOptions {
  collections: DocumentCollection[];
  bus: EventBus;
  topic: string;
  /** Pause between runs of the background loop (default 500 ms). */
  intervalMs?: number;
  /** Documents read per collection per pass (default 100). */
  batchSize?: number;
  /** A drain that has been running, or failing, this long means events are stuck (default 60 s). */
  stallMs?: number;
  logger?: Logger;
  /**
   * With several replicas over one store: only the lease holder relays, so replicas do not publish
   * the same events over each other; another replica takes over when the holder dies (lease.ts).
   */
  lease?: Lease;
}

export interface OutboxRelay {
  /** False once events have been stuck for `stallMs`: a drain hangs, or every drain since fails. */
  isFlowing(): boolean;
  start(): void;
  /** Stops the loop after a last flush; a failing last flush is logged, the events stay pending. */
  stop(): Promise<void>;
  /** Publishes everything pending now; resolves with the number of events published, rejects if the bus fails. */
  flush(): Promise<number>;
}

const MAX_PASSES = 10;

/**
 * Documents with events still to publish (every event has an id; a published one is pulled), and
 * the index that serves the relay's poll: only such documents are in it, so a poll costs what is
 * pending, not the size of the collection.
 */
const PENDING_EVENTS = { [`${OUTBOX_FIELD}.id`]: { $exists: true } };
export const OUTBOX_INDEX: IndexSpec = {
  keys: { [`${OUTBOX_FIELD}.id`]: 1 },
  partialFilter: PENDING_EVENTS,
  name: 'outbox_pending',
};

export function createOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const logger = options.logger ?? createLogger();
  const batchSize = options.batchSize ?? 100;

  /**
   * Publishes each document's events (documents are separate aggregates: no order between them),
   * then removes what was published from all of them by one write. Only the published events: an
   * entity may have gained new ones since it was read. A document whose publishing failed keeps
   * its events; the first failure is raised after the others were removed.
   */
  const relayDocuments = async (collection: DocumentCollection, docs: Doc[]): Promise<number> => {
    const results = await Promise.allSettled(docs.map(async (doc) => {
      const events = doc[OUTBOX_FIELD] as DomainEvent[];
      await options.bus.publish(options.topic, events);
      instruments().eventsPublished.add(events.length, { topic: options.topic });
      return { id: doc._id, events };
    }));
    const done = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    if (done.length) {
      const eventIds = done.flatMap((d) => d.events.map((e) => e.id));
      await collection.updateMany({ _id: { $in: done.map((d) => d.id) } }, {
        $pull: { [OUTBOX_FIELD]: { id: { $in: eventIds } } },
      });
    }
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    return done.reduce((sum, d) => sum + d.events.length, 0);
  };

  let published = 0;
  let indexed: Promise<void> | undefined;
  const drainPending = async (): Promise<void> => {
    // Once, before the first poll; without the index the poll still works, scanning.
    indexed ??= Promise.all(options.collections.map((c) => c.createIndex(OUTBOX_INDEX))).then(
      () => undefined,
      (err: unknown) =>
        logger.warn('outbox relay could not create its index; polling scans the collections', {
          topic: options.topic,
          err,
        }),
    );
    await indexed;
    // A collection whose publishing fails does not hold back the others; the first failure is raised at the end.
    let failure: { err: unknown } | undefined;
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      let found = 0;
      for (const collection of options.collections) {
        try {
          // Only the events: the rest of a document is neither published nor copied.
          const docs = await collection.find(PENDING_EVENTS, { limit: batchSize, projection: { [OUTBOX_FIELD]: 1 } });
          found += docs.length;
          if (docs.length) published += await relayDocuments(collection, docs);
        } catch (err) {
          failure ??= { err };
        }
      }
      if (found === 0 || failure) break;
    }
    if (failure) throw failure.err;
  };
  const drain = watchDrains(drainPending, options.stallMs ?? 60_000, (flowing, sinceMs) => {
    if (flowing) logger.info('outbox relay publishes again', { topic: options.topic });
    else logger.error('outbox relay cannot publish: events are waiting', { topic: options.topic, forMs: sinceMs });
  });

  // One drain at a time: two overlapping runs would publish the same documents twice.
  const task = createPeriodicTask({
    name: `outbox relay (${options.topic})`,
    intervalMs: options.intervalMs ?? 500,
    run: drain.run,
    logger,
    ...(options.lease ? { lease: options.lease } : {}),
  });
  const flush = async (): Promise<number> => {
    const before = published;
    await task.runNow();
    return published - before;
  };

  let stopGauge: (() => void) | undefined;
  return {
    isFlowing: drain.isFlowing,
    start() {
      task.start();
      // Documents with events still to publish (the index above serves the count), read when scraped.
      stopGauge ??= observeGauge('outbox.pending', {
        description: 'Documents whose events wait in the outbox, by topic',
      }, async (observe) => {
        const counts = await Promise.all(options.collections.map((c) => c.countDocuments(PENDING_EVENTS)));
        observe(counts.reduce((sum, n) => sum + n, 0), { topic: options.topic });
      });
    },
    async stop() {
      stopGauge?.();
      stopGauge = undefined;
      await task.stop();
      try {
        await flush();
      } catch (err) {
        logger.error('outbox relay stopped with events still pending', { topic: options.topic, err });
      }
      // The last flush took the lease again: give it back, or the next replica waits for it to lapse.
      await options.lease?.release().catch(() => undefined);
    },
    flush,
  };
}

/**
 * Wraps the drain to tell whether events flow: not when one drain has been running for `stallMs`
 * or drains have failed for that long since the last one that succeeded. `changed` hears each flip.
 */
function watchDrains(
  drain: () => Promise<void>,
  stallMs: number,
  changed: (flowing: boolean, troubleForMs: number) => void,
) {
  let runningSince: number | undefined;
  let failingSince: number | undefined;
  let flowing = true;
  const isFlowing = (): boolean => {
    const troubleSince = Math.min(runningSince ?? Infinity, failingSince ?? Infinity);
    const now = Date.now();
    const next = now - troubleSince < stallMs;
    if (next !== flowing) changed(next, now - troubleSince);
    flowing = next;
    return next;
  };
  const run = async (): Promise<void> => {
    runningSince = Date.now();
    try {
      await drain();
      failingSince = undefined;
    } catch (err) {
      failingSince ??= runningSince;
      throw err;
    } finally {
      runningSince = undefined;
      isFlowing();
    }
  };
  return { run, isFlowing };
}
