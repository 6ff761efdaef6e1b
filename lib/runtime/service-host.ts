import { createOutboxRelay } from '../bus/outbox';
import { createDeadLetters, type DeadLetters } from '../bus/dead-letters';
import { bindDeadLetterService } from '../bus/dead-letter-service';
import type { EventBus, Subscription } from '../bus/event-bus';
import { startGrpcServer, type RunningGrpcServer } from '../grpc/grpc-server';
import { readConfig, setting } from '../config';
import type { Logger } from '../log';
import { openServiceStore } from './adapters';
import { leasesIn } from './lease';
import { meteredStore } from './metered-store';
import { markStart } from './start-timeline';
import type { PeerClients } from './peer-clients';
import type { ServiceFactory, ServiceName } from './service-module';

export interface HostedService {
  name: ServiceName;
  address: string;
  /** Its gRPC services by fully-qualified name, for peers in this process. */
  local: RunningGrpcServer['local'];
  /**
   * Starts relaying the service's outbox. Called once every service of the process has started, so
   * that the subscribers of an in-process bus are there before the first event is published.
   */
  startRelay(): void;
  /** Drains in-flight calls, stops workers and the outbox relay (after a last flush), closes the store. */
  stop(): Promise<void>;
}

export interface HostOptions {
  name: ServiceName;
  factory: ServiceFactory;
  address: string;
  internalToken: string;
  bus: EventBus;
  peers: PeerClients;
  logger: Logger;
  env: NodeJS.ProcessEnv;
}

/** Runs one service: its store, gRPC server (health, reflection), outbox relay and workers. */
export async function hostService(options: HostOptions): Promise<HostedService> {
  const logger = options.logger.child({ component: options.name });
  const store = meteredStore(await openServiceStore(options.name, options.env));
  markStart(`${options.name}: store open`);
  const subscriptions: Subscription[] = [];
  const { OUTBOX_STALL_MS, WORKER_LEASE_MS, EVENT_HANDLER_ATTEMPTS, EVENT_RETRY_BASE_MS } = readConfig({
    /**
     * Events stuck this long in a service's outbox (publishing hangs or keeps failing) make its event pipeline
     * NOT_SERVING (degraded, still ready)
     */
    OUTBOX_STALL_MS: setting.int(60_000, 1_000),
    /**
     * Lifetime of a worker lease (outbox relay, settlement and recovery passes): with several replicas, one whose
     * holder died is taken over after this long. Renewed every third of it while held
     */
    WORKER_LEASE_MS: setting.int(15_000, 1_000),
    /**
     * Attempts a consumer group makes at one event before it dead-letters it and goes on with the next
     * (docs/reliability.md); an outage (UNAVAILABLE, STORAGE_FULL) is retried without counting. Keep the attempts'
     * backoff within the Kafka session timeout
     */
    EVENT_HANDLER_ATTEMPTS: setting.int(5, 1),
    /** Delay before a consumer's first retry of a failing event; doubles up to 5 s */
    EVENT_RETRY_BASE_MS: setting.int(200, 1),
  }, options.env);
  const backoff = { initialMs: EVENT_RETRY_BASE_MS, maxMs: Math.max(EVENT_RETRY_BASE_MS, 5_000) };
  const deadLetters = createDeadLetters({ store, logger, settings: { attempts: EVENT_HANDLER_ATTEMPTS, backoff } });
  // The embedded store is opened by one process at a time (the store lock): a restarted process is
  // the same holder and takes its leases back at once instead of waiting for them to lapse.
  const leases = leasesIn(store, {
    ttlMs: WORKER_LEASE_MS,
    ...(options.env.MONGODB_URI?.trim() ? {} : { holder: 'the process holding the store lock' }),
  });
  await deadLetters.prepare();
  const module = options.factory({
    store,
    bus: trackSubscriptions(options.bus, subscriptions, deadLetters),
    logger,
    peers: options.peers,
    env: options.env,
    leases,
  });
  markStart(`${options.name}: module created`);
  await module.start?.();
  markStart(`${options.name}: started (indexes, workers)`);
  const relay = module.eventsTopic && module.outboxCollections?.length
    ? createOutboxRelay({
      collections: module.outboxCollections,
      bus: options.bus,
      topic: module.eventsTopic,
      logger,
      stallMs: OUTBOX_STALL_MS,
      lease: leases(`outbox relay ${module.eventsTopic}`),
    })
    : undefined;
  const server = await startGrpcServer({
    name: options.name,
    bindings: [...module.bindings, bindDeadLetterService(deadLetters)],
    internalToken: options.internalToken,
    logger,
    address: options.address,
    // Ready: the store answers. A stalled consumer or outbox degrades (HEALTH_EVENTS) without taking requests away.
    isReady: () => store.ping(),
    eventsFlowing: async () => subscriptions.every((s) => s.isRunning?.() ?? true) && (relay?.isFlowing() ?? true),
  });
  markStart(`${options.name}: gRPC listening`);
  return {
    name: options.name,
    address: server.address,
    local: server.local,
    startRelay: () => relay?.start(),
    async stop() {
      await server.shutdown();
      await module.stop?.();
      deadLetters.stop();
      await relay?.stop();
      await store.close();
    },
  };
}

/**
 * The shared bus as one service sees it: the subscriptions it makes are remembered for its health,
 * and each handler gets bounded attempts, after which the event is dead-lettered (dead-letters.ts).
 */
function trackSubscriptions(bus: EventBus, into: Subscription[], deadLetters: DeadLetters): EventBus {
  return {
    publish: (topic, events) => bus.publish(topic, events),
    async subscribe(options) {
      const subscription = await bus.subscribe({ ...options, handler: deadLetters.guard(options) });
      into.push(subscription);
      return subscription;
    },
    close: () => bus.close(),
  };
}
