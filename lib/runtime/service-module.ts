import type { EventBus } from '../bus/event-bus';
import type { DocumentCollection, DocumentStore } from '../store/document-store';
import type { BindingRuntime, ServiceBinding } from '../grpc/service-binding';
import type { Logger } from '../log';
import type { PeerClients } from './peer-clients';
import type { Lease } from './lease';

/** What every service receives from the runtime, whichever adapters are configured. */
export interface ServiceEnvironment {
  /** This service's own database (embedded, or its MongoDB database). */
  store: DocumentStore;
  bus: EventBus;
  logger: Logger;
  /** gRPC clients of the other services (resolved lazily, so start order does not matter). */
  peers: PeerClients;
  env: NodeJS.ProcessEnv;
  /**
   * A named lease in this service's store, one holder per replica: a worker that must run in one
   * replica at a time takes it (lease.ts). Absent in tests that run one instance.
   */
  leases?: (name: string) => Lease;
}

/**
 * A service as the runtime sees it: its gRPC bindings, the collections whose `_outbox` the
 * runtime relays to `eventsTopic`, and optional background workers.
 */
export interface ServiceModule {
  name: ServiceName;
  bindings: Array<(runtime: BindingRuntime) => ServiceBinding>;
  eventsTopic?: string;
  outboxCollections?: DocumentCollection[];
  /** Creates indexes, starts workers and subscriptions. */
  start?(): Promise<void>;
  /** Stops workers; called after the gRPC server drained. */
  stop?(): Promise<void>;
}

export type ServiceName = 'auth' | 'accounts' | 'quotes-transactions' | 'notifications';
export const SERVICE_NAMES: readonly ServiceName[] = ['auth', 'accounts', 'quotes-transactions', 'notifications'];

export type ServiceFactory = (environment: ServiceEnvironment) => ServiceModule;
