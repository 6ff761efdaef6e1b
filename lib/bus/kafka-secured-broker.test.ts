import { rmSync } from 'node:fs';
import { silentLogger } from '../log';
import { startKafkaMockCluster, type KafkaMockCluster } from '../../test/kafka-mock/kafka-mock-cluster';
import {
  startSecuredBroker,
  type SecuredBroker,
  type SecuredBrokerOptions,
} from '../../test/kafka-mock/secured-broker-proxy';
import { makeTestCertificates, type TestCertificates } from '../../test/kafka-mock/test-certificates';
import type { DomainEvent } from './event-bus';
import { event, uniqueName, waitFor } from './event-bus.contract';
import { createKafkaEventBus } from './kafka-event-bus';
import { readKafkaSecurity } from './kafka-security';

/**
 * The TLS and SASL settings, as an operator writes them, end to end through kafkajs: librdkafka's
 * mock cluster behind a front door that terminates TLS (a CA made at test time) and authenticates
 * SASL (PLAIN, SCRAM-SHA-256/512) before relaying the Kafka protocol (test/kafka-mock/secured-broker-proxy.ts).
 * What this does not prove: the TLS and SASL of an Apache Kafka broker itself (the mock has neither).
 */
let cluster: KafkaMockCluster;
let certs: TestCertificates;
const doors: SecuredBroker[] = [];
beforeAll(async () => {
  cluster = await startKafkaMockCluster(['secured:1']);
  certs = makeTestCertificates();
}, 10 * 60_000);
afterAll(async () => {
  await Promise.all(doors.map((d) => d.stop()));
  await cluster?.stop();
  rmSync(certs.dir, { recursive: true, force: true });
});

async function door(options: Omit<SecuredBrokerOptions, 'upstream'>): Promise<SecuredBroker> {
  const started = await startSecuredBroker({ upstream: cluster.brokers[0], ...options });
  doors.push(started);
  return started;
}

const serverTls = (requestCert = false) => ({
  key: certs.pem('serverKey'),
  cert: certs.pem('serverCert'),
  ...(requestCert ? { ca: certs.pem('ca'), requestCert: true, rejectUnauthorized: true } : {}),
});

/** Publishes one event and receives it in a consumer group through `brokers`, with the settings in `env`. */
async function roundTrip(brokers: string[], env: NodeJS.ProcessEnv): Promise<DomainEvent[]> {
  const bus = createKafkaEventBus({
    brokers,
    clientId: 'secured-test',
    logger: silentLogger,
    security: readKafkaSecurity(env),
    retry: { initialMs: 20, maxMs: 200 },
    consumer: { sessionTimeout: 6_000, heartbeatInterval: 300, maxWaitTimeInMs: 100 },
    publishTimeoutMs: 20_000,
  });
  const seen: DomainEvent[] = [];
  try {
    const sent = event(uniqueName('agg'), 1);
    await bus.publish('secured', [sent]);
    await bus.subscribe({
      topic: 'secured',
      group: uniqueName('g'),
      fromBeginning: true,
      handler: async (e) => void seen.push(e),
    });
    await waitFor(() => seen.some((e) => e.id === sent.id), 30_000);
    return seen.filter((e) => e.id === sent.id);
  } finally {
    await bus.close();
  }
}

test(
  'TLS verified against KAFKA_TLS_CA_FILE, with SASL PLAIN: publish and consume through the secured broker',
  async () => {
    const broker = await door({
      tls: serverTls(),
      sasl: { mechanism: 'plain', username: 'grid', password: 'plain-secret' },
    });
    const got = await roundTrip(broker.brokers, {
      KAFKA_TLS_CA_FILE: certs.files.ca,
      KAFKA_SASL_MECHANISM: 'PLAIN',
      KAFKA_SASL_USERNAME: 'grid',
      KAFKA_SASL_PASSWORD: 'plain-secret',
    });
    expect(got).toHaveLength(1);
    expect(broker.authenticated()).toBeGreaterThanOrEqual(2); // the producer's and the consumer's connections
    expect(broker.rejected()).toBe(0);
  },
  60_000,
);

test('mutual TLS (a client certificate the broker requires) with SCRAM-SHA-512', async () => {
  const broker = await door({
    tls: serverTls(true),
    sasl: { mechanism: 'scram-sha-512', username: 'grid', password: 'scram-512-secret' },
  });
  const got = await roundTrip(broker.brokers, {
    KAFKA_TLS_CA_FILE: certs.files.ca,
    KAFKA_TLS_CERT_FILE: certs.files.clientCert,
    KAFKA_TLS_KEY_FILE: certs.files.clientKey,
    KAFKA_SASL_MECHANISM: 'scram-sha-512',
    KAFKA_SASL_USERNAME: 'grid',
    KAFKA_SASL_PASSWORD: 'scram-512-secret',
  });
  expect(got).toHaveLength(1);
  expect(broker.rejected()).toBe(0);
}, 60_000);

test('SCRAM-SHA-256 without TLS', async () => {
  const broker = await door({ sasl: { mechanism: 'scram-sha-256', username: 'grid', password: 'scram-256-secret' } });
  const got = await roundTrip(broker.brokers, {
    KAFKA_SASL_MECHANISM: 'scram-sha-256',
    KAFKA_SASL_USERNAME: 'grid',
    KAFKA_SASL_PASSWORD: 'scram-256-secret',
  });
  expect(got).toHaveLength(1);
  expect(broker.authenticated()).toBeGreaterThanOrEqual(2);
}, 60_000);

describe('what the secured broker refuses', () => {
  const publishOnce = async (brokers: string[], env: NodeJS.ProcessEnv) => {
    const bus = createKafkaEventBus({
      brokers,
      clientId: 'secured-refused',
      logger: silentLogger,
      security: readKafkaSecurity(env),
      publishTimeoutMs: 20_000,
    });
    try {
      return await bus.publish('secured', [event(uniqueName('agg'), 1)]).then(
        () => 'published',
        (err: Error) => err.message,
      );
    } finally {
      await bus.close();
    }
  };

  test('a wrong SCRAM password publishes nothing', async () => {
    const broker = await door({ sasl: { mechanism: 'scram-sha-256', username: 'grid', password: 'right' } });
    const outcome = await publishOnce(broker.brokers, {
      KAFKA_SASL_MECHANISM: 'scram-sha-256',
      KAFKA_SASL_USERNAME: 'grid',
      KAFKA_SASL_PASSWORD: 'wrong',
    });
    expect(outcome).toMatch(/SASL SCRAM SHA256 authentication failed/i);
    expect(broker.rejected()).toBeGreaterThanOrEqual(1);
    expect(broker.authenticated()).toBe(0);
  }, 60_000);

  test('a broker certificate from a CA other than KAFKA_TLS_CA_FILE publishes nothing', async () => {
    const broker = await door({ tls: serverTls() });
    const outcome = await publishOnce(broker.brokers, { KAFKA_TLS_CA_FILE: certs.files.otherCa });
    expect(outcome).not.toBe('published');
  }, 60_000);

  test('a broker that requires a client certificate refuses a client without one', async () => {
    const broker = await door({ tls: serverTls(true) });
    const outcome = await publishOnce(broker.brokers, { KAFKA_TLS_CA_FILE: certs.files.ca });
    expect(outcome).not.toBe('published');
  }, 60_000);
});
