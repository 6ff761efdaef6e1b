import type { EventBus } from '../bus/event-bus';
import { createInProcessEventBus } from '../bus/in-process-event-bus';
import { createKafkaEventBus } from '../bus/kafka-event-bus';
import { ConfigError } from '../config';
import type { Logger } from '../log';
import type { DocumentStore } from '../store/document-store';
import { createEmbeddedDocumentStore } from '../store/embedded-document-store';
import { createMongoDocumentStore } from '../store/mongo-document-store';
import type { ServiceName } from './service-module';

/** Each service owns its own database: `<MONGODB_DB_PREFIX>_<service>` on MONGODB_URI. */
export async function openServiceStore(service: ServiceName, env: NodeJS.ProcessEnv): Promise<DocumentStore> {
  const uri = env.MONGODB_URI?.trim();
  if (!uri) return createEmbeddedDocumentStore();
  if (!/^mongodb(\+srv)?:\/\//.test(uri)) throw new ConfigError('MONGODB_URI', 'must start with mongodb:// or mongodb+srv://');
  const prefix = env.MONGODB_DB_PREFIX?.trim() || 'grid';
  return createMongoDocumentStore({ uri, dbName: `${prefix}_${service.replace(/-/g, '_')}` });
}

/** Kafka when KAFKA_BROKERS is set; otherwise one in-process bus shared by the services of this process. */
export function openEventBus(env: NodeJS.ProcessEnv, clientId: string, logger: Logger): EventBus {
  const brokers = env.KAFKA_BROKERS?.split(',').map((b) => b.trim()).filter(Boolean);
  if (!brokers?.length) return createInProcessEventBus();
  for (const broker of brokers) {
    if (!/^[A-Za-z0-9.\-[\]:]+:\d{1,5}$/.test(broker)) throw new ConfigError('KAFKA_BROKERS', `must be host:port[,host:port], got "${broker}"`);
  }
  return createKafkaEventBus({ brokers, clientId, logger });
}
