import { Kafka, logLevel } from 'kafkajs';
import { createKafkaEventBus } from '../lib/bus/kafka-event-bus';
import type { DomainEvent } from '../lib/bus/event-bus';
import { silentLogger } from '../lib/log';
import { startKafkaMockCluster } from '../test/kafka-mock/kafka-mock-cluster';

/**
 * How fast one consumer group works through a backlog on the real wire protocol (librdkafka's mock
 * broker): our bus, which commits once per fetched batch (and at least every second), against the
 * same kafkajs consumer committing after every message (how our bus consumed before), the baseline.
 * Same broker, same backlog of transaction-sized events, same run. 9,000 events keep each of the
 * three partitions under the mock broker's 5 MB log limit, beyond which it deletes the oldest.
 */
const PAYLOAD = { transaction: 'x'.repeat(1_000) }; // about the size of a transaction event

function backlog(n: number): DomainEvent[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `Event:${i}`,
    type: 'OUTGOING_PAYMENT.COMPLETED',
    version: 1,
    occurredAt: new Date().toISOString(),
    platformId: 'Platform:bench',
    aggregateId: `Transaction:${i % 500}`,
    data: PAYLOAD,
  }));
}

/** Milliseconds from the first message to the n-th (the group join is not what is measured). */
async function timed(n: number, consume: (received: () => void) => Promise<() => Promise<void>>): Promise<number> {
  let first = 0;
  let seen = 0;
  let finish!: (ms: number) => void;
  const finished = new Promise<number>((resolve) => (finish = resolve));
  const stop = await consume(() => {
    if (seen++ === 0) first = Date.now();
    if (seen === n) finish(Date.now() - first);
  });
  const ms = await finished;
  await stop();
  return ms;
}

export async function runKafkaConsumeBenchmark(n = 9_000) {
  const cluster = await startKafkaMockCluster(['bench-consume:3']);
  const options = {
    brokers: cluster.brokers,
    clientId: 'bench',
    logger: silentLogger,
    consumer: { maxWaitTimeInMs: 100 },
  };
  const bus = createKafkaEventBus(options);
  try {
    for (let i = 0; i < n; i += 500) await bus.publish('bench-consume', backlog(n).slice(i, i + 500));

    const perMessageCommitMs = await timed(n, async (received) => {
      const consumer = new Kafka({ brokers: cluster.brokers, clientId: 'bench-baseline', logLevel: logLevel.NOTHING })
        .consumer({ groupId: 'bench-per-message', maxWaitTimeInMs: 100 });
      await consumer.connect();
      await consumer.subscribe({ topics: ['bench-consume'], fromBeginning: true });
      await consumer.run({
        autoCommit: false,
        partitionsConsumedConcurrently: 3,
        eachMessage: async ({ topic, partition, message }) => {
          JSON.parse(message.value!.toString());
          await consumer.commitOffsets([{ topic, partition, offset: (BigInt(message.offset) + 1n).toString() }]);
          received();
        },
      });
      return () => consumer.disconnect();
    });

    const busMs = await timed(n, async (received) => {
      const subscription = await bus.subscribe({
        topic: 'bench-consume',
        group: 'bench-bus',
        fromBeginning: true,
        handler: async () => received(),
      });
      return () => subscription.close();
    });

    const perSecond = (ms: number) => Math.round((n * 1000) / ms);
    return {
      events: n,
      busEventsPerSecond: perSecond(busMs),
      perMessageCommitEventsPerSecond: perSecond(perMessageCommitMs),
      ratio: Number((perMessageCommitMs / busMs).toFixed(2)),
    };
  } finally {
    await bus.close();
    await cluster.stop();
  }
}
