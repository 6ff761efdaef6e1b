import type { ServiceEnvironment } from '../../../lib/runtime/service-module';
import { createKeyedRequestRetention, createKeyedRequests, type KeyedRequestTiming } from './app/keyed-requests';
import { bindIdempotencyService } from './grpc/idempotency-handlers';
import { createKeyedRequestDocumentStore } from './store/keyed-request-document-store';

/**
 * Grid keeps keys at least 24 hours; a keyed request not finished within a minute is presumed
 * crashed (gRPC calls and the gateway's request timeout are far shorter), and a repeat may run it.
 */
export const KEYED_REQUEST_TIMING: KeyedRequestTiming = { leaseMs: 60_000, retentionMs: 24 * 3_600_000 };

/** The record of Idempotency-Keys every keyed REST operation uses (docs/idempotency.md). */
export function createIdempotencyModule(environment: ServiceEnvironment, clock: () => Date) {
  const store = createKeyedRequestDocumentStore(environment.store);
  const keyedRequests = createKeyedRequests({ store, clock, timing: KEYED_REQUEST_TIMING });
  const retention = createKeyedRequestRetention({ store, clock, logger: environment.logger });
  return {
    binding: bindIdempotencyService(keyedRequests),
    async start() {
      await store.ensureIndexes();
      retention.start();
    },
    stop: () => retention.stop(),
  };
}
