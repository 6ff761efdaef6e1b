import { AppError } from '../errors';
import { createLogger, type Logger } from '../log';
import { instruments, observeGauge } from '../metrics';
import { DuplicateKeyError, type DocumentStore } from '../store/document-store';
import type { DomainEvent, EventHandler } from './event-bus';
import { backoffDelay, type RetryBackoff } from './retry-backoff';

/**
 * The dead letters of a service: an event one of its consumer groups could not handle after a
 * bounded number of attempts is kept here, and the group goes on with the events behind it, so one
 * bad event never stops a stream. An operator lists, inspects and replays them (DeadLetterService,
 * docs/reliability.md). Stored through the document-store port: the embedded store by default,
 * MongoDB when configured.
 */
export const DEAD_LETTERS_COLLECTION = 'event_dead_letters';

export type DeadLetterStatus = 'DEAD' | 'REPLAYED';

export type DeadLetter = {
  /** `<group>:<event id>`: an event is dead-lettered once per group, however often it is redelivered. */
  _id: string;
  topic: string;
  group: string;
  event: DomainEvent;
  status: DeadLetterStatus;
  /** Attempts the consumer made before giving up, replays included. */
  attempts: number;
  /** The last failure's message. */
  lastError: string;
  deadLetteredAt: string;
  replayedAt?: string;
};

export interface DeadLetterSettings {
  /** Attempts of one event before it is dead-lettered (at least 1). */
  attempts: number;
  backoff: Required<RetryBackoff>;
}

export const DEFAULT_DEAD_LETTER_SETTINGS: DeadLetterSettings = {
  attempts: 5,
  backoff: { initialMs: 200, maxMs: 5_000 },
};

export interface DeadLetterQuery {
  status?: DeadLetterStatus;
  group?: string;
  limit?: number;
}

export interface DeadLetters {
  /**
   * Wraps a consumer group's handler: bounded retries, then the event is dead-lettered and the
   * handler answers success. An outage (UNAVAILABLE, STORAGE_FULL) is raised to the bus at once.
   */
  guard(options: { topic: string; group: string; handler: EventHandler }): EventHandler;
  list(query?: DeadLetterQuery): Promise<DeadLetter[]>;
  get(id: string): Promise<DeadLetter>;
  /**
   * Runs the group's handler on the event once more: REPLAYED on success; on failure it stays DEAD with the new error.
   */
  replay(id: string): Promise<DeadLetter>;
  /** Indexes, and the `events_dead_letters` gauge (scraped). */
  prepare(): Promise<void>;
  stop(): void;
}

/**
 * A failure that says nothing about the event: a peer or the store is down or full. Every event
 * would fail alike, so it goes back to the bus, which retries it for as long as the outage lasts
 * (Kafka in place, heartbeating; the in-process bus and then the outbox), without counting attempts.
 */
const isOutage = (err: unknown) =>
  err instanceof AppError && (err.code === 'UNAVAILABLE' || err.code === 'STORAGE_FULL');

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 2_000);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface DeadLettersOptions {
  store: DocumentStore;
  settings?: DeadLetterSettings;
  logger?: Logger;
  clock?: () => Date;
}

/** An event whose consumer failed every one of its `tried` attempts, the last with `err`. */
interface FailedDelivery {
  topic: string;
  group: string;
  event: DomainEvent;
  tried: number;
  err: unknown;
}

export function createDeadLetters(options: DeadLettersOptions): DeadLetters {
  const letters = options.store.collection<DeadLetter>(DEAD_LETTERS_COLLECTION);
  const settings = options.settings ?? DEFAULT_DEAD_LETTER_SETTINGS;
  const attempts = Math.max(1, settings.attempts);
  const logger = options.logger ?? createLogger();
  const clock = options.clock ?? (() => new Date());
  /** The handler of each group this process consumes with, for replays. */
  const handlers = new Map<string, EventHandler>();
  let stopGauge: (() => void) | undefined;

  /** Raises when the letter cannot be stored: the bus then keeps the event (retried), nothing is lost. */
  async function deadLetter({ topic, group, event, tried, err }: FailedDelivery): Promise<void> {
    const letter: DeadLetter = {
      _id: `${group}:${event.id}`,
      topic,
      group,
      event,
      status: 'DEAD',
      attempts: tried,
      lastError: errorText(err),
      deadLetteredAt: clock().toISOString(),
    };
    try {
      await letters.insertOne(letter);
    } catch (insertErr) {
      if (!(insertErr instanceof DuplicateKeyError)) throw insertErr;
      // Delivered again (at-least-once) after it was dead-lettered, or replayed and failing again.
      const again = { status: 'DEAD', lastError: letter.lastError, deadLetteredAt: letter.deadLetteredAt };
      await letters.updateOne({ _id: letter._id }, { $set: again, $inc: { attempts: tried } });
    }
    instruments().eventsDeadLettered.add(1, { topic, group, type: event.type });
    logger.error('event dead-lettered: its consumer failed every attempt; the events behind it go on', {
      topic,
      group,
      eventId: event.id,
      eventType: event.type,
      attempts: tried,
      err,
    });
  }

  const dead = async (id: string): Promise<DeadLetter> => {
    const letter = await letters.findOne({ _id: id });
    if (!letter) throw AppError.notFound(`Dead letter ${id}`);
    return letter;
  };

  return {
    guard({ topic, group, handler }) {
      handlers.set(group, handler);
      return async (event) => {
        for (let attempt = 1;; attempt++) {
          try {
            await handler(event);
            return;
          } catch (err) {
            if (isOutage(err)) throw err;
            if (attempt >= attempts) return deadLetter({ topic, group, event, tried: attempt, err });
            logger.warn('event handler failed; retrying', {
              topic,
              group,
              eventId: event.id,
              eventType: event.type,
              attempt,
              err,
            });
          }
          await sleep(backoffDelay(attempt, settings.backoff));
        }
      };
    },

    async list(query = {}) {
      const filter = {
        ...(query.status ? { status: query.status } : {}),
        ...(query.group ? { group: query.group } : {}),
      };
      const limit = Math.min(Math.max(1, query.limit ?? 100), 1_000);
      return letters.find(filter, { sort: { deadLetteredAt: -1 }, limit });
    },

    get: dead,

    async replay(id) {
      const letter = await dead(id);
      if (letter.status !== 'DEAD') {
        throw new AppError('INVALID_STATE', `Dead letter ${id} was replayed at ${letter.replayedAt}`);
      }
      const handler = handlers.get(letter.group);
      if (!handler) throw new AppError('INVALID_STATE', `No consumer of group ${letter.group} runs in this service`);
      try {
        await handler(letter.event);
      } catch (err) {
        const lastError = errorText(err);
        await letters.updateOne({ _id: id }, { $set: { lastError }, $inc: { attempts: 1 } });
        logger.warn('dead letter replayed and failed again; it stays dead', {
          group: letter.group,
          eventId: letter.event.id,
          err,
        });
        return { ...letter, lastError, attempts: letter.attempts + 1 };
      }
      const replayedAt = clock().toISOString();
      await letters.updateOne({ _id: id }, { $set: { status: 'REPLAYED', replayedAt }, $inc: { attempts: 1 } });
      logger.info('dead letter replayed', { group: letter.group, eventId: letter.event.id });
      return { ...letter, status: 'REPLAYED', replayedAt, attempts: letter.attempts + 1 };
    },

    async prepare() {
      await letters.createIndex({ keys: { status: 1, deadLetteredAt: -1 } });
      const gauge = { description: 'Events dead-lettered and not replayed (status DEAD), by consumer group' };
      stopGauge ??= observeGauge('events.dead_letters', gauge, async (observe) => {
        const waiting = await letters.find({ status: 'DEAD' }, { projection: { group: 1 } });
        const byGroup = new Map<string, number>();
        for (const l of waiting) byGroup.set(l.group, (byGroup.get(l.group) ?? 0) + 1);
        for (const [group, count] of byGroup) observe(count, { group });
      });
    },

    stop() {
      stopGauge?.();
      stopGauge = undefined;
    },
  };
}
