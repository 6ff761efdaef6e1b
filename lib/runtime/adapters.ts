import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { EventBus } from '../bus/event-bus';
import { createInProcessEventBus } from '../bus/in-process-event-bus';
import { ConfigError, readConfig, setting } from '../config';
import type { Logger } from '../log';
import type { DocumentStore } from '../store/document-store';
import { DEFAULT_CACHE_DOCUMENTS } from '../store/store-defaults';
import type { ServiceName } from './service-module';
import { lockStoreFiles } from './store-lock';

import { IN_MEMORY } from './in-memory';

export { IN_MEMORY };

// Each engine and broker client is loaded when it is chosen: a start loads one store engine, and
// Kafka's client only with KAFKA_BROKERS (the others are a good part of a start's module loading).
const mongoEngine = () => require('../store/mongo-document-store') as typeof import('../store/mongo-document-store');
const sqliteEngine = () => require('../store/sqlite-document-store') as typeof import('../store/sqlite-document-store');
const inMemoryEngine = () =>
  require('../store/embedded-document-store') as typeof import('../store/embedded-document-store');
const kafka = () => ({
  ...(require('../bus/kafka-event-bus') as typeof import('../bus/kafka-event-bus')),
  ...(require('../bus/kafka-security') as typeof import('../bus/kafka-security')),
});

/**
 * Each service owns its own database: `<MONGODB_DB_PREFIX>_<service>` on MONGODB_URI; otherwise the
 * embedded engine (SQLite, docs/embedded-store.md), durable in `<DATA_DIR>/<service>.sqlite`, or on an
 * in-memory database when DATA_DIR is `:memory:` (same engine, nothing on disk).
 * The durable engine is single-replica: `<DATA_DIR>/<service>.lock` refuses a second process.
 */
export async function openServiceStore(service: ServiceName, env: NodeJS.ProcessEnv): Promise<DocumentStore> {
  const uri = env.MONGODB_URI?.trim();
  if (uri) {
    if (!/^mongodb(\+srv)?:\/\//.test(uri)) {
      throw new ConfigError('MONGODB_URI', 'must start with mongodb:// or mongodb+srv://');
    }
    const prefix = env.MONGODB_DB_PREFIX?.trim() || 'grid';
    const { MONGODB_CONNECT_TIMEOUT_MS } = readConfig({
      /** How long a service waits at start for a MongoDB server to answer before it stops, naming MONGODB_URI */
      MONGODB_CONNECT_TIMEOUT_MS: setting.int(30_000, 100, 600_000),
    }, env);
    try {
      return await mongoEngine().createMongoDocumentStore({
        uri,
        dbName: `${prefix}_${service.replace(/-/g, '_')}`,
        serverSelectionTimeoutMS: MONGODB_CONNECT_TIMEOUT_MS,
      });
    } catch (err) {
      // The URI may carry a password: the error names the variable and the host part only.
      const where = uri.replace(/\/\/[^@/]*@/, '//').replace(/[?].*$/, '');
      throw new Error(
        `cannot reach MongoDB at ${where} (MONGODB_URI) within ${MONGODB_CONNECT_TIMEOUT_MS} ms: ${
          err instanceof Error ? err.message : String(err)
        }`,
      );
    }
  }
  const { DATA_DIR, DATA_SYNC, STORE_CACHE_DOCUMENTS } = readConfig({
    /**
     * Embedded store: directory of its files and generated keys; `:memory:` keeps nothing. One process per directory (a
     * lock refuses a second) @default data/ beside dist/
     */
    DATA_DIR: setting.string(),
    /** Embedded store: `full` syncs every write to disk (survives power loss), `normal` survives a process crash */
    DATA_SYNC: setting.oneOf(['normal', 'full'] as const, 'normal'),
    /** Embedded store: decoded documents kept in memory per service */
    STORE_CACHE_DOCUMENTS: setting.int(DEFAULT_CACHE_DOCUMENTS, 0),
  }, env);
  if (DATA_DIR === IN_MEMORY) {
    return inMemoryEngine().createEmbeddedDocumentStore({ cacheDocuments: STORE_CACHE_DOCUMENTS });
  }
  mkdirSync(DATA_DIR, { recursive: true });
  const lock = lockStoreFiles(join(DATA_DIR, `${service}.lock`), service);
  try {
    const path = join(DATA_DIR, `${service}.sqlite`);
    // A file of format 1 (the journal layout: plain BSON, no index entries) is upgraded in place at its first open.
    const store = sqliteEngine().createSqliteDocumentStore({
      path,
      sync: DATA_SYNC,
      cacheDocuments: STORE_CACHE_DOCUMENTS,
    });
    return { ...store, close: () => store.close().finally(() => lock.release()) };
  } catch (err) {
    lock.release();
    throw err;
  }
}

/** Kafka when KAFKA_BROKERS is set; otherwise one in-process bus shared by the services of this process. */
export function openEventBus(env: NodeJS.ProcessEnv, clientId: string, logger: Logger): EventBus {
  const brokers = env.KAFKA_BROKERS?.split(',').map((b) => b.trim()).filter(Boolean);
  if (!brokers?.length) return createInProcessEventBus({ logger });
  for (const broker of brokers) {
    if (!/^[A-Za-z0-9.\-[\]:]+:\d{1,5}$/.test(broker)) {
      throw new ConfigError('KAFKA_BROKERS', `must be host:port[,host:port], got "${broker}"`);
    }
  }
  const { createKafkaEventBus, describeKafkaSecurity, readKafkaSecurity } = kafka();
  const security = readKafkaSecurity(env);
  logger.info('kafka', { brokers, security: describeKafkaSecurity(security) });
  const timings = readConfig({
    /** Kafka consumer group session timeout: a member silent this long is dropped from its group */
    KAFKA_SESSION_TIMEOUT_MS: setting.int(30_000, 1_000),
    /** Kafka consumer heartbeat interval */
    KAFKA_HEARTBEAT_INTERVAL_MS: setting.int(3_000, 100),
    /** Longest a Kafka fetch waits for new messages */
    KAFKA_MAX_WAIT_MS: setting.int(5_000, 10),
    /**
     * A consumer in its group that neither fetched nor heartbeated this long degrades its service (health `events`
     * NOT_SERVING, named in the gateway's /readyz; still ready); so does one still joining after 2 ×
     * KAFKA_SESSION_TIMEOUT_MS plus this @default KAFKA_SESSION_TIMEOUT_MS
     */
    KAFKA_STALL_MS: setting.optionalInt(1_000),
  }, env);
  return createKafkaEventBus({
    brokers,
    clientId,
    logger,
    security,
    consumer: {
      sessionTimeout: timings.KAFKA_SESSION_TIMEOUT_MS,
      heartbeatInterval: timings.KAFKA_HEARTBEAT_INTERVAL_MS,
      maxWaitTimeInMs: timings.KAFKA_MAX_WAIT_MS,
    },
    stallMs: timings.KAFKA_STALL_MS,
  });
}
