import {
  Kafka,
  logLevel,
  Partitioners,
  type Admin,
  type IHeaders,
  type KafkaMessage,
  type LogEntry,
  type Producer,
} from 'kafkajs';
import { createLogger, type Logger } from '../log';
import type { DomainEvent, EventBus, EventHandler, Subscription } from './event-bus';
import { inConsumerSpan, startProducerSpans } from './messaging-spans';
import { superviseConsumer } from './kafka-consumer-supervisor';
import type { KafkaSecurity } from './kafka-security';
import { observeGauge } from '../metrics';
import { backoffDelay, type RetryBackoff } from './retry-backoff';
import { createLogRateLimit } from './log-rate-limit';

const TRANSIENT_MAX_WAIT_MS = 1_000;

export interface KafkaEventBusOptions {
  brokers: string[];
  clientId: string;
  /** TLS and SASL to the brokers (lib/bus/kafka-security.ts reads and checks them); plaintext when absent. */
  security?: KafkaSecurity;
  logger?: Logger;
  /** Backoff of a failing handler. The message is retried in place until it succeeds (or its consumer stops). */
  retry?: RetryBackoff;
  /** Consumer-group timings (kafkajs names); tests shorten them. */
  consumer?: {
    sessionTimeout?: number;
    heartbeatInterval?: number;
    maxWaitTimeInMs?: number;
    partitionsConsumedConcurrently?: number;
  };
  /** A consumer in its group that neither fetched nor heartbeated for this long counts as not running. */
  stallMs?: number;
  /** A publish not acknowledged within this long fails and the next one uses a new connection (default 120 s). */
  publishTimeoutMs?: number;
}

export const EVENT_HEADERS = {
  id: 'event-id',
  type: 'event-type',
  version: 'event-version',
  traceparent: 'traceparent',
} as const;

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
    ...(options.security?.ssl ? { ssl: options.security.ssl } : {}),
    ...(options.security?.sasl ? { sasl: options.security.sasl } : {}),
    logLevel: logLevel.INFO,
    logCreator: () => {
      const limit = createLogRateLimit();
      return (entry) => forwardLog(logger, entry, limit);
    },
  });
  const subscriptions = new Set<Subscription>();
  let producer: Promise<Producer> | undefined;
  let closed = false;
  const consumed = new Map<Subscription, { topic: string; group: string }>();
  const stopLagGauge = observeConsumerLag(kafka, () => [...consumed.values()]);

  const connectedProducer = (): Promise<Producer> => (producer ??= (async () => {
    const p = kafka.producer({
      createPartitioner: Partitioners.DefaultPartitioner,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: true,
    });
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
        // kafkajs times out each request and retries; the deadline is for a send that never settles at all.
        const sent = p.send({
          topic,
          acks: -1,
          messages: events.map((event, i) => encode(event, spans.traceparentOf(i))),
        });
        await withDeadline(sent, options.publishTimeoutMs ?? 120_000, `publish to ${topic}`);
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

    async subscribe({ topic, group, handler, fromBeginning, transient }) {
      if (closed) throw new Error('event bus is closed');
      const log = logger.child({ topic, group });
      const timings = options.consumer ?? {};
      const stopping = createLatch();
      // Not awaited: the group join can take a session timeout or more, and serving must not wait for it.
      const sessionMs = timings.sessionTimeout ?? 30_000;
      // A transient (per-replica cache) group carries invalidations that every replica must apply
      // within seconds: its fetches wait at most 1 s for a record, whatever the broker's long-poll does.
      const maxWaitTimeInMs = transient
        ? Math.min(TRANSIENT_MAX_WAIT_MS, timings.maxWaitTimeInMs ?? 5_000)
        : timings.maxWaitTimeInMs;
      const stallMs = options.stallMs ?? Math.max(sessionMs, 2 * (maxWaitTimeInMs ?? 5_000));
      const member = superviseConsumer({
        kafka,
        topic,
        fromBeginning: fromBeginning ?? false,
        log,
        restartBackoff: backoff,
        stallMs,
        joinGraceMs: 2 * sessionMs + stallMs,
        config: {
          groupId: group,
          sessionTimeout: timings.sessionTimeout,
          heartbeatInterval: timings.heartbeatInterval,
          maxWaitTimeInMs,
          allowAutoTopicCreation: true,
          retry: { initialRetryTime: backoff.initialMs, maxRetryTime: backoff.maxMs, retries: 8 },
        },
        // Offsets are resolved only after a message's handler succeeded and committed once per batch
        // (and at least every second within a long one): one commit per message would cap a consumer
        // at one broker round trip per event.
        runConfig: () => ({
          autoCommit: true,
          autoCommitInterval: 1_000,
          eachBatchAutoResolve: false,
          partitionsConsumedConcurrently: timings.partitionsConsumedConcurrently ?? 3,
          eachBatch: async ({ batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale }) => {
            for (const message of batch.messages) {
              // Once stopping, nothing more is handled or resolved: the group's next member resumes here.
              if (stopping.done || !isRunning() || isStale()) return;
              const at = { topic: batch.topic, group, partition: batch.partition, message };
              if (!(await consumeMessage(at, handler, { heartbeat, stopping, backoff, log }))) return;
              resolveOffset(message.offset);
              await commitOffsetsIfNecessary();
              await heartbeat();
            }
          },
        }),
      });

      const subscription: Subscription = {
        isRunning: () => member.isRunning(),
        async close() {
          if (!subscriptions.delete(subscription)) return;
          consumed.delete(subscription);
          const disconnected = member.close(); // stops the fetch loop before the wait below ends
          stopping.release();
          await disconnected;
          if (transient) await deleteGroup(kafka, group, log);
        },
      };
      subscriptions.add(subscription);
      consumed.set(subscription, { topic, group });
      return subscription;
    },

    async close() {
      closed = true;
      await stopLagGauge();
      await Promise.allSettled([...subscriptions].map((s) => s.close()));
      const p = producer;
      producer = undefined;
      if (p) await (await p.catch(() => undefined))?.disconnect();
    },
  };
}

/** A replica's own group, empty once its member left: deleted so that no group outlives its replica. Best effort. */
async function deleteGroup(kafka: Kafka, group: string, log: Logger): Promise<void> {
  const admin = kafka.admin();
  try {
    await withDeadline(
      admin.connect().then(() => admin.deleteGroups([group])),
      5_000,
      `delete consumer group ${group}`,
    );
  } catch (err) {
    log.debug('consumer group left for the broker to expire', { err });
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
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
    if (
      !event || typeof event.id !== 'string' || typeof event.type !== 'string' || typeof event.aggregateId !== 'string'
    ) return undefined;
    const traceparent = message.headers?.[EVENT_HEADERS.traceparent]?.toString();
    return traceparent && !event.traceparent ? { ...event, traceparent } : event;
  } catch {
    return undefined;
  }
}

interface ConsumedMessage {
  topic: string;
  group: string;
  partition: number;
  message: KafkaMessage;
}

/**
 * `messaging_kafka_consumer_lag`: per topic and group, the messages not yet committed (the
 * partitions' high watermarks minus the group's committed offsets), read from the broker when
 * Prometheus scrapes. A stalled consumer shows as a growing lag; an unreachable broker as no value.
 */
function observeConsumerLag(kafka: Kafka, groups: () => Array<{ topic: string; group: string }>): () => Promise<void> {
  let admin: Promise<Admin> | undefined;
  const connected = () => (admin ??= (async () => {
    const a = kafka.admin();
    await a.connect();
    return a;
  })().catch((err) => {
    admin = undefined;
    throw err;
  }));
  const stop = observeGauge('messaging.kafka.consumer.lag', {
    description: 'Messages of a topic not yet committed by a consumer group',
  }, async (observe) => {
    const wanted = groups();
    if (!wanted.length) return;
    const a = await withDeadline(connected(), 5_000, 'connect the metrics admin client');
    await Promise.all(wanted.map(async ({ topic, group }) => {
      const [ends, committed] = await withDeadline(
        Promise.all([a.fetchTopicOffsets(topic), a.fetchOffsets({ groupId: group, topics: [topic] })]),
        5_000,
        'read consumer offsets',
      );
      const done = new Map((committed[0]?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]));
      let lag = 0;
      for (const end of ends) {
        const at = done.get(end.partition) ?? -1;
        lag += Math.max(0, Number(end.high) - (at < 0 ? Number(end.low) : at));
      }
      observe(lag, { topic, group });
    }));
  });
  return async () => {
    stop();
    const a = admin;
    admin = undefined;
    if (a) await (await a.catch(() => undefined))?.disconnect();
  };
}

/** One message in its consumer span: handled in place until it succeeds; false when the consumer stopped first. */
async function consumeMessage(
  { topic, group, partition, message }: ConsumedMessage,
  handler: EventHandler,
  ctx: RetryContext,
): Promise<boolean> {
  const event = decode(message);
  const at = { partition, offset: message.offset };
  const traceparent = message.headers?.[EVENT_HEADERS.traceparent]?.toString();
  return inConsumerSpan({ topic, group, partition, offset: message.offset, traceparent, event }, async () => {
    if (event) return handleInPlace(event, handler, { ...ctx, log: ctx.log.child(at) });
    ctx.log.error('malformed event message skipped', at);
    return true;
  });
}

interface RetryContext {
  heartbeat(): Promise<void>;
  stopping: Latch;
  backoff: Required<RetryBackoff>;
  log: Logger;
}

/** Retries until the handler succeeds; false when the consumer stopped first (message left uncommitted). */
async function handleInPlace(event: DomainEvent, handler: EventHandler, ctx: RetryContext): Promise<boolean> {
  for (let attempt = 1;; attempt++) {
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

function forwardLog(
  logger: Logger,
  { namespace, level, log }: LogEntry,
  limit: ReturnType<typeof createLogRateLimit>,
): void {
  const { message, timestamp: _timestamp, logger: _name, ...fields } = log as LogEntry['log'] & { logger?: string };
  // An unreachable broker: kafkajs retries every connection several times a second; one line per 10 s is enough.
  const admitted = level <= logLevel.WARN ? limit.admit(`${namespace}:${message}`) : { write: true, suppressed: 0 };
  if (!admitted.write) return;
  const withNamespace = {
    kafkajs: namespace,
    ...fields,
    ...(admitted.suppressed ? { repeatedMeanwhile: admitted.suppressed } : {}),
  };
  if (level === logLevel.ERROR) logger.error(message, withNamespace);
  else if (level === logLevel.WARN) logger.warn(message, withNamespace);
  else logger.debug(message, withNamespace);
}

/** Rejects when `work` has not settled within `ms` (the work itself goes on; its outcome is ignored). */
async function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not acknowledged within ${ms} ms`)), ms);
  });
  work.catch(() => undefined); // after the deadline nobody awaits it
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
