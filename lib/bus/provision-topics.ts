import { Kafka, logLevel, type ITopicConfig } from 'kafkajs';
import { ConfigError, readConfig, setting } from '../config';
import { readKafkaSecurity } from './kafka-security';

/** Every topic the components publish to or consume from. */
export const EVENT_TOPICS = [
  'auth.events.v1',
  'auth.api-tokens.v1',
  'accounts.events.v1',
  'payments.events.v1',
  'notifications.events.v1',
] as const;

const SCHEMA = {
  /**
   * Topic provisioning: partitions of each event topic (the most consumers of one group that share its work; more
   * replicas idle)
   */
  KAFKA_TOPIC_PARTITIONS: setting.int(6, 1, 10_000),
  /** Topic provisioning: copies of each partition on different brokers */
  KAFKA_TOPIC_REPLICATION_FACTOR: setting.int(3, 1, 100),
  /** Topic provisioning: replicas that must have a write before it is acknowledged (the producers use acks=all) */
  KAFKA_TOPIC_MIN_INSYNC_REPLICAS: setting.int(2, 1, 100),
  /**
   * Topic provisioning: how long events stay in a topic; a consumer group stopped longer than this misses events
   * (default 7 days)
   */
  KAFKA_TOPIC_RETENTION_MS: setting.int(604_800_000, 3_600_000),
};

export interface TopicPlan {
  topics: ITopicConfig[];
}

/** The topics to create and their settings, from the environment. */
export function topicPlan(env: NodeJS.ProcessEnv): TopicPlan {
  const c = readConfig(SCHEMA, env);
  if (c.KAFKA_TOPIC_MIN_INSYNC_REPLICAS > c.KAFKA_TOPIC_REPLICATION_FACTOR) {
    throw new ConfigError(
      'KAFKA_TOPIC_MIN_INSYNC_REPLICAS',
      'must not exceed KAFKA_TOPIC_REPLICATION_FACTOR '
        + `(${c.KAFKA_TOPIC_REPLICATION_FACTOR}): no write could be acknowledged`,
    );
  }
  return {
    topics: EVENT_TOPICS.map((topic) => ({
      topic,
      numPartitions: c.KAFKA_TOPIC_PARTITIONS,
      replicationFactor: c.KAFKA_TOPIC_REPLICATION_FACTOR,
      configEntries: [
        { name: 'retention.ms', value: String(c.KAFKA_TOPIC_RETENTION_MS) },
        { name: 'min.insync.replicas', value: String(c.KAFKA_TOPIC_MIN_INSYNC_REPLICAS) },
        { name: 'cleanup.policy', value: 'delete' },
      ],
    })),
  };
}

/**
 * Creates the event topics that do not exist yet, with the brokers' TLS and SASL settings of the
 * components. Existing topics are reported and left alone: adding partitions later moves
 * aggregates to other partitions, so that is an operator's deliberate step. Safe to run again.
 */
export async function provisionTopics(
  env: NodeJS.ProcessEnv,
  write: (line: string) => void,
): Promise<{ created: string[]; existing: string[] }> {
  const brokers = env.KAFKA_BROKERS?.split(',').map((b) => b.trim()).filter(Boolean);
  if (!brokers?.length) throw new ConfigError('KAFKA_BROKERS', 'is required to provision topics');
  const plan = topicPlan(env);
  const security = readKafkaSecurity(env);
  const kafka = new Kafka({ brokers, clientId: 'grid-provision-topics', logLevel: logLevel.NOTHING, ...security });
  const admin = kafka.admin();
  await admin.connect();
  try {
    const present = new Set(await admin.listTopics());
    const missing = plan.topics.filter((t) => !present.has(t.topic));
    const existing = plan.topics.filter((t) => present.has(t.topic)).map((t) => t.topic);
    if (existing.length) {
      const metadata = await admin.fetchTopicMetadata({ topics: existing });
      for (const t of [...metadata.topics].sort((a, b) => existing.indexOf(a.name) - existing.indexOf(b.name))) {
        write(`exists: ${t.name} (${t.partitions.length} partitions; left as it is)`);
      }
    }
    if (missing.length) {
      await admin.createTopics({ topics: missing, waitForLeaders: true });
      for (const t of missing) {
        write(
          `created: ${t.topic} (${t.numPartitions} partitions, replication ${t.replicationFactor}, ${
            t.configEntries!.map((e) => `${e.name}=${e.value}`).join(', ')
          })`,
        );
      }
    }
    return { created: missing.map((t) => t.topic), existing };
  } finally {
    await admin.disconnect();
  }
}

// `node dist/lib/bus/provision-topics.js`: the Kubernetes Job deploy/base/kafka-topics-job.yaml runs this.
if (require.main === module) {
  provisionTopics(process.env, (line) => process.stdout.write(`${line}\n`)).then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(
        err instanceof ConfigError
          ? `${err.message}\n`
          : `cannot provision topics: ${err instanceof Error ? err.message : String(err)}\n`,
      );
      process.exit(err instanceof ConfigError ? 2 : 1);
    },
  );
}
