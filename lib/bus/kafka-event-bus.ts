import { Kafka, logLevel, Partitioners, type IHeaders, type KafkaMessage, type LogEntry, type Producer } from 'kafkajs';
import { createLogger, type Logger } from '../log';
import type { DomainEvent, EventBus, EventHandler, Subscription } from './event-bus';
import { inConsumerSpan, startProducerSpans } from './messaging-spans';
import { superviseConsumer } from './kafka-consumer-supervisor';
import { backoffDelay, type RetryBackoff } from './retry-backoff';

export interface KafkaEventBusOptions {
  brokers: string[];
  clientId: string;
  logger?: Logger;
  /** Backoff of a failing handler. The message is retried in place until it succeeds (or its consumer stops). */
  retry?: RetryBackoff;
  /** Consumer-group timings (kafkajs names); tests shorten them. */
  consumer?: { sessionTimeout?: number; heartbeatInterval?: number; maxWaitTimeInMs?: number; partitionsConsumedConcurrently?: number };
  /** A consumer in its group that neither fetched nor heartbeated for this long counts as not running. */
  stallMs?: number;
}

export const EVENT_HEADERS = { id: 'event-id', type: 'event-type', version: 'event-version', traceparent: 'traceparent' } as const;

/** After this many failed attempts of one message, each further failure is logged as an error. */
const LOUD_AFTER_ATTEMPTS = 5;

/**
 * Kafka adapter of the event port. Key = aggregateId, so one aggregate's events share a partition
 * and keep their order. The producer is not idempotent: kafkajs fetches the producer id from the
 * controller, which librdkafka's mock cluster (our test broker) does not report; acks=-1 with one
 * request in flight keeps per-partition order, and consumers de-duplicate by event id anyway.
 */
export function createKafkaEventBus(options: KafkaEventBusOptions): EventBus {
  const logger = options.logger ?? createLogger();
  const backoff = { initialMs: options.retry?.initialMs ?? 200, maxMs: options.retry?.maxMs ?? 30_000 };
  const kafka = new Kafka({
    brokers: options.brokers,
    clientId: options.clientId,
    logLevel: logLevel.INFO,
    logCreator: () => (entry) => forwardLog(logger, entry),
  });
  const subscriptions = new Set<Subscription>();
  let producer: Promise<Producer> | undefined;
  let closed = false;

  const connectedProducer = (): Promise<Producer> =>
    (producer ??= (async () => {
      const p = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, maxInFlightRequests: 1, allowAutoTopicCreation: true });
      await p.connect();
      return p;
    })().catch((err) => {
      producer = undefined; // let the next publish try again
      throw err;
    }));

  return {
    async publish(topic, events) {
      if (closed) throw new Error('event bus is closed');
      if (!events.length) return;
      const pending = connectedProducer();
      const p = await pending;
      const spans = startProducerSpans(topic, events);
      try {
        await p.send({ topic, acks: -1, messages: events.map((event, i) => encode(event, spans.traceparentOf(i))) });
        spans.end();
      } catch (err) {
        spans.end(err);
        // After a broker outage the next publish starts from a fresh connection (the caller retries).
        if (producer === pending) {
          producer = undefined;
          void p.disconnect().catch(() => undefined);
        }
        throw err;
      }
    },

    async subscribe({ topic, group, handler, fromBeginning }) {
      if (closed) throw new Error('event bus is closed');
      const log = logger.child({ topic, group });
      const timings = options.consumer ?? {};
      const stopping = createLatch();
      // Not awaited: the group join can take a session timeout or more, and serving must not wait for it.
      const sessionMs = timings.sessionTimeout ?? 30_000;
      const stallMs = options.stallMs ?? Math.max(sessionMs, 2 * (timings.maxWaitTimeInMs ?? 5_000));
      const member = superviseConsumer({
        kafka, topic, fromBeginning: fromBeginning ?? false, log,
        restartBackoff: backoff,
        stallMs,
        joinGraceMs: 2 * sessionMs + stallMs,
        config: {
          groupId: group,
          sessionTimeout: timings.sessionTimeout,
          heartbeatInterval: timings.heartbeatInterval,
          maxWaitTimeInMs: timings.maxWaitTimeInMs,
          allowAutoTopicCreation: true,
          retry: { initialRetryTime: backoff.initialMs, maxRetryTime: backoff.maxMs, retries: 8 },
        },
        runConfig: (consumer) => ({
          autoCommit: false,
          partitionsConsumedConcurrently: timings.partitionsConsumedConcurrently ?? 3,
          eachMessage: async ({ topic: from, partition, message, heartbeat }) => {
            // Once stopping, nothing more is handled or committed: the group's next member resumes here.
            if (stopping.done) return;
            const event = decode(message);
            const at = { partition, offset: message.offset };
            const traceparent = message.headers?.[EVENT_HEADERS.traceparent]?.toString();
            await inConsumerSpan({ topic: from, group, partition, offset: message.offset, traceparent, event }, async () => {
              if (!event) {
                log.error('malformed event message skipped', at);
              } else {
                const handled = await handleInPlace(event, handler, { heartbeat, stopping, backoff, log: log.child(at) });
                if (!handled) return;
              }
              await consumer.commitOffsets([{ topic: from, partition, offset: (BigInt(message.offset) + 1n).toString() }]);
            });
          },
        }),
      });

      const subscription: Subscription = {
        isRunning: () => member.isRunning(),
        async close() {
          if (!subscriptions.delete(subscription)) return;
          const disconnected = member.close(); // stops the fetch loop before the wait below ends
          stopping.release();
          await disconnected;
        },
      };
      subscriptions.add(subscription);
      return subscription;
    },

    async close() {
      closed = true;
      await Promise.allSettled([...subscriptions].map((s) => s.close()));
      const p = producer;
      producer = undefined;
      if (p) await (await p.catch(() => undefined))?.disconnect();
    },
  };
}

function encode(event: DomainEvent, traceparent: string | undefined) {
  const headers: IHeaders = {
    [EVENT_HEADERS.id]: event.id,
    [EVENT_HEADERS.type]: event.type,
    [EVENT_HEADERS.version]: String(event.version),
  };
  if (traceparent) headers[EVENT_HEADERS.traceparent] = traceparent;
  return { key: event.aggregateId, value: JSON.stringify(event), headers };
}

function decode(message: KafkaMessage): DomainEvent | undefined {
  try {
    const event = JSON.parse(message.value?.toString() ?? '') as DomainEvent;
    if (!event || typeof event.id !== 'string' || typeof event.type !== 'string' || typeof event.aggregateId !== 'string') return undefined;
    const traceparent = message.headers?.[EVENT_HEADERS.traceparent]?.toString();
    return traceparent && !event.traceparent ? { ...event, traceparent } : event;
  } catch {
    return undefined;
  }
}

interface RetryContext {
  heartbeat(): Promise<void>;
  stopping: Latch;
  backoff: Required<RetryBackoff>;
  log: Logger;
}

/** Retries until the handler succeeds; false when the consumer stopped first (message left uncommitted). */
async function handleInPlace(event: DomainEvent, handler: EventHandler, ctx: RetryContext): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      await handler(event); // in the consumer span (inConsumerSpan)
      return true;
    } catch (err) {
      const fields = { eventId: event.id, eventType: event.type, attempt, err };
      if (attempt >= LOUD_AFTER_ATTEMPTS) ctx.log.error('event handler keeps failing; retrying in place', fields);
      else ctx.log.warn('event handler failed; retrying in place', fields);
    }
    if (!(await waitWithHeartbeats(backoffDelay(attempt, ctx.backoff), ctx))) return false;
  }
}

/** Sleeps in slices, heartbeating so a long backoff does not get the member evicted from its group. */
async function waitWithHeartbeats(ms: number, ctx: RetryContext): Promise<boolean> {
  const until = Date.now() + ms;
  while (!ctx.stopping.done) {
    const left = until - Date.now();
    if (left <= 0) return true;
    await Promise.race([ctx.stopping.wait, sleep(Math.min(left, 1_000))]);
    if (!ctx.stopping.done) await ctx.heartbeat(); // throws on rebalance: kafkajs rejoins and refetches
  }
  return false;
}

interface Latch {
  readonly done: boolean;
  readonly wait: Promise<void>;
  release(): void;
}

function createLatch(): Latch {
  let release!: () => void;
  const wait = new Promise<void>((resolve) => (release = resolve));
  const latch = {
    done: false,
    wait,
    release() {
      latch.done = true;
      release();
    },
  };
  return latch;
}

function forwardLog(logger: Logger, { namespace, level, log }: LogEntry): void {
  const { message, timestamp: _timestamp, logger: _name, ...fields } = log as LogEntry['log'] & { logger?: string };
  const withNamespace = { kafkajs: namespace, ...fields };
  if (level === logLevel.ERROR) logger.error(message, withNamespace);
  else if (level === logLevel.WARN) logger.warn(message, withNamespace);
  else logger.debug(message, withNamespace);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
