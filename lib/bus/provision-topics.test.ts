import { startKafkaMockCluster, type KafkaMockCluster } from '../../test/kafka-mock/kafka-mock-cluster';
import { ConfigError } from '../config';
import { EVENT_TOPICS, provisionTopics, topicPlan } from './provision-topics';

test(
  'the plan: every event topic, with the partitions, replication '
    + 'and retention configured (production defaults otherwise)',
  () => {
    const defaults = topicPlan({});
    expect(defaults.topics.map((t) => t.topic)).toEqual([...EVENT_TOPICS]);
    expect(defaults.topics[0]).toEqual({
      topic: 'auth.events.v1',
      numPartitions: 6,
      replicationFactor: 3,
      configEntries: [{ name: 'retention.ms', value: '604800000' }, { name: 'min.insync.replicas', value: '2' }, {
        name: 'cleanup.policy',
        value: 'delete',
      }],
    });
    const small = topicPlan({
      KAFKA_TOPIC_PARTITIONS: '3',
      KAFKA_TOPIC_REPLICATION_FACTOR: '1',
      KAFKA_TOPIC_MIN_INSYNC_REPLICAS: '1',
      KAFKA_TOPIC_RETENTION_MS: '86400000',
    });
    expect(small.topics[2]).toMatchObject({
      topic: 'accounts.events.v1',
      numPartitions: 3,
      replicationFactor: 1,
      configEntries: expect.arrayContaining([{ name: 'retention.ms', value: '86400000' }]),
    });
  },
);

test('refuses settings no broker could honour, naming them', () => {
  expect(() => topicPlan({ KAFKA_TOPIC_REPLICATION_FACTOR: '1' })).toThrow(
    /^configuration error: KAFKA_TOPIC_MIN_INSYNC_REPLICAS must not exceed KAFKA_TOPIC_REPLICATION_FACTOR \(1\)/,
  );
  expect(() => topicPlan({ KAFKA_TOPIC_PARTITIONS: '0' })).toThrow(ConfigError);
  expect(() => topicPlan({ KAFKA_TOPIC_RETENTION_MS: '1000' })).toThrow(
    /KAFKA_TOPIC_RETENTION_MS must be between 3600000/,
  );
  return expect(provisionTopics({}, () => undefined)).rejects.toThrow(/KAFKA_BROKERS is required to provision topics/);
});

describe('against the Kafka-protocol broker', () => {
  let cluster: KafkaMockCluster;
  beforeAll(async () => {
    cluster = await startKafkaMockCluster(EVENT_TOPICS.map((t) => `${t}:2`));
  }, 10 * 60_000);
  afterAll(() => cluster?.stop());

  // Creating topics needs a controller, which librdkafka's mock cluster does not report: that path is untested here.
  test('topics that exist are reported with their partitions and left alone (a rerun changes nothing)', async () => {
    const lines: string[] = [];
    const outcome = await provisionTopics({ KAFKA_BROKERS: cluster.brokers.join(',') }, (l) => lines.push(l));
    expect(outcome).toEqual({ created: [], existing: [...EVENT_TOPICS] });
    expect(lines).toEqual(EVENT_TOPICS.map((t) => `exists: ${t} (2 partitions; left as it is)`));
  });
});
