import type {
  Metadata,
  sendUnaryData,
  ServerUnaryCall,
  ServiceDefinition,
  UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { timingSafeEqual, hash } from 'node:crypto';
import { AppError, toAppError } from '../errors';
import type { Logger } from '../log';
import { isSpanContextValid } from '@opentelemetry/api';
import { extractTraceContext, inSpan, SpanKind } from '../telemetry';
import { instruments, secondsSince } from '../metrics';
import { contextFromMetadata, METADATA, type CallContext } from './call-context';
import { toStatusObject } from './error-status';

/** Request and response types of each method, read off a ts-proto service definition. */
type RequestOf<M> = M extends { requestDeserialize: (b: Buffer) => infer R } ? R : never;
type ResponseOf<M> = M extends { responseDeserialize: (b: Buffer) => infer R } ? R : never;

/** What a service writes: one async function per RPC, typed from the proto contract. */
export type UnaryHandlers<D> = {
  [K in keyof D]: (request: RequestOf<D[K]>, ctx: CallContext) => Promise<ResponseOf<D[K]>>;
};

export interface ServiceBinding {
  definition: ServiceDefinition;
  implementation: UntypedServiceImplementation;
  /** Fully-qualified service name, for health and reflection. */
  name: string;
}

export interface BindingRuntime {
  logger: Logger;
  /** Shared secret internal callers present as `authorization: Bearer <token>`. */
  internalToken: string;
  inFlight: { started(): void; finished(): void };
}

/** SHA-256 with the one-shot `hash` (every call is checked; a Hash object costs three times as much). */
function digest(value: string): Buffer {
  return hash('sha256', value, 'buffer');
}

function isAuthorized(metadata: Metadata, expected: Buffer): boolean {
  const presented = metadata.get(METADATA.authorization)[0];
  if (typeof presented !== 'string') return false;
  return timingSafeEqual(digest(presented), expected);
}

/** The fully-qualified proto service name a definition's methods belong to (`accounts.v1.AccountsService`). */
export function serviceNameOf(definition: ServiceDefinition): string {
  const first = Object.values(definition)[0];
  return first.path.split('/')[1];
}

/** What a service answers a caller whose INTERNAL_TOKEN is not its own. */
export const INTERNAL_TOKEN_REFUSED = 'Internal caller not authenticated';

/** The answer of a service that does not share this process's INTERNAL_TOKEN: retrying cannot help. */
export function isInternalTokenRefused(err: unknown): boolean {
  return err instanceof AppError && err.code === 'UNAUTHORIZED' && err.message === INTERNAL_TOKEN_REFUSED;
}

/** Adapts async handlers to grpc-js: internal auth, trace context, error mapping, drain tracking. */
export function bindService<D extends ServiceDefinition>(
  definition: D,
  handlers: UnaryHandlers<D>,
): (runtime: BindingRuntime) => ServiceBinding {
  return (runtime) => {
    const expected = digest(`Bearer ${runtime.internalToken}`);
    const implementation: UntypedServiceImplementation = {};
    const service = serviceNameOf(definition);
    for (const [method, spec] of Object.entries(definition)) {
      const handler = handlers[method as keyof D] as (req: unknown, ctx: CallContext) => Promise<unknown>;
      implementation[method] = (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
        runtime.inFlight.started();
        const started = process.hrtime.bigint();
        let traceId: string | undefined;
        let code = 'OK';
        const parent = extractTraceContext(call.metadata.getMap() as Record<string, string>);
        const ctx = contextFromMetadata(call.metadata);
        // The gateway's request id (X-Correlation-Id): its log line and this service's share it in every mode, traced
        // or not.
        const ids = ctx.correlationId ? { correlationId: ctx.correlationId } : {};
        inSpan(spec.path, { kind: SpanKind.SERVER, parent, attributes: { 'rpc.system': 'grpc' } }, async (span) => {
          const spanContext = span.spanContext();
          if (isSpanContextValid(spanContext)) traceId = spanContext.traceId;
          if (!isAuthorized(call.metadata, expected)) throw new AppError('UNAUTHORIZED', INTERNAL_TOKEN_REFUSED);
          return handler(call.request, ctx);
        })
          .then((response) => callback(null, response))
          .catch((err: unknown) => {
            const error = toAppError(err);
            code = error.code;
            if (error.code === 'INTERNAL_ERROR') {
              runtime.logger.error('rpc failed', { rpc: spec.path, ...ids, cause: error.cause ?? err });
            }
            if (error.code === 'STORAGE_FULL') {
              runtime.logger.error('rpc refused: the data store cannot write (disk full)', {
                rpc: spec.path,
                ...ids,
                cause: error.cause,
              });
            }
            callback(toStatusObject(error));
          })
          .finally(() => {
            runtime.inFlight.finished();
            const seconds = secondsSince(started);
            instruments().rpcServer.record(seconds, { 'rpc.service': service, 'rpc.method': method, code });
            runtime.logger.debug('rpc', {
              rpc: spec.path,
              code,
              durationMs: seconds * 1000,
              ...ids,
              ...(traceId ? { traceId } : {}),
            });
          });
      };
    }
    return { definition, implementation, name: serviceNameOf(definition) };
  };
}
