import { channelCredentials, type TlsChoice } from './transport-security';
import {
  Metadata,
  makeGenericClientConstructor,
  type Client,
  type ServiceDefinition,
  type ServiceError,
} from '@grpc/grpc-js';
import { AppError } from '../errors';
import { injectTraceContext, inSpan, SpanKind } from '../telemetry';
import { contextToHeaders, METADATA, type CallContext } from './call-context';
import { fromServiceError, MAX_METADATA_BYTES } from './error-status';

type RequestOf<M> = M extends { requestSerialize: (v: infer R) => Buffer } ? R : never;
type ResponseOf<M> = M extends { responseDeserialize: (b: Buffer) => infer R } ? R : never;

/** A promise-returning client whose methods are typed from the proto service definition. */
export type ServiceClient<D> =
  & {
    [K in keyof D]: (request: RequestOf<D[K]>, ctx?: CallContext) => Promise<ResponseOf<D[K]>>;
  }
  & { close(): void; waitForReady(deadlineMs: number): Promise<void> };

export interface ClientOptions {
  internalToken: string;
  /** Per-call deadline. */
  timeoutMs?: number;
  /** Mutual TLS (transport-security.ts): this process's GRPC_TLS_* settings unless given; null for plaintext. */
  tls?: TlsChoice;
}

/** What every internal call carries: the caller's context, the internal token and the trace context. */
export function outgoingMetadata(ctx: CallContext, internalToken: string): Metadata {
  const metadata = new Metadata();
  for (const [key, value] of Object.entries(outgoingHeaders(ctx, internalToken))) metadata.set(key, value);
  return metadata;
}

/** The same as plain header values, for the thread transport (port-transport.ts). */
export function outgoingHeaders(ctx: CallContext, internalToken: string): Record<string, string> {
  const headers = contextToHeaders(ctx);
  headers[METADATA.authorization] = `Bearer ${internalToken}`;
  return injectTraceContext(headers);
}

type MethodSpec = ServiceDefinition[string];
type Lifecycle = Pick<ServiceClient<unknown>, 'close' | 'waitForReady'>;
const NOTHING_TO_OPEN: Lifecycle = { close: () => undefined, waitForReady: async () => undefined };

/**
 * A typed client of `definition` whose every method runs `call` in a client span: what the network,
 * in-process and thread-port clients share, whatever carries the call.
 */
export function clientOf<D extends ServiceDefinition>(
  definition: D,
  call: (method: string, spec: MethodSpec, request: unknown, ctx: CallContext) => Promise<unknown>,
  lifecycle: Lifecycle = NOTHING_TO_OPEN,
): ServiceClient<D> {
  const out: Record<string, unknown> = { ...lifecycle };
  for (const [method, spec] of Object.entries(definition)) {
    out[method] = (request: unknown, ctx: CallContext = {}) =>
      inSpan(
        spec.path,
        { kind: SpanKind.CLIENT, attributes: { 'rpc.system': 'grpc' } },
        () => call(method, spec, request, ctx),
      );
  }
  return out as ServiceClient<D>;
}

const ROUND_ROBIN = JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] });

export function createServiceClient<D extends ServiceDefinition>(
  definition: D,
  address: string,
  options: ClientOptions,
): ServiceClient<D> {
  const Ctor = makeGenericClientConstructor(definition, 'client');
  const client: Client = new Ctor(address, channelCredentials(options.tls), {
    'grpc.keepalive_time_ms': 30000,
    // Peers start in any order (separate pods); reconnect quickly instead of backing off for long.
    'grpc.initial_reconnect_backoff_ms': 200,
    'grpc.max_reconnect_backoff_ms': 2000,
    // 16 MB: a stored document (at most 10 MB) comes back in one message.
    'grpc.max_receive_message_length': 16 * 1024 * 1024,
    // Errors carry their field list in trailers (grpc-status-details-bin): the 8 KB default is too small.
    'grpc.max_metadata_size': MAX_METADATA_BYTES,
    // Every address the name resolves to (a headless Service's pods) gets calls in turn, instead of the first one only.
    'grpc.service_config': ROUND_ROBIN,
  });
  const timeoutMs = options.timeoutMs ?? 10000;
  return clientOf(definition, (_method, spec, request, ctx) => {
    const metadata = outgoingMetadata(ctx, options.internalToken);
    return new Promise((resolve, reject) => {
      client.makeUnaryRequest(
        spec.path,
        spec.requestSerialize,
        spec.responseDeserialize,
        request,
        metadata,
        { deadline: Date.now() + timeoutMs },
        (err: ServiceError | null, response?: unknown) => (err ? reject(fromServiceError(err)) : resolve(response)),
      );
    });
  }, {
    close: () => client.close(),
    waitForReady: (deadlineMs: number) =>
      new Promise<void>((resolve, reject) =>
        client.waitForReady(Date.now() + deadlineMs, (e) => (e ? reject(e) : resolve()))
      ),
  });
}

export function isUnavailable(err: unknown): boolean {
  return err instanceof AppError && err.code === 'UNAVAILABLE';
}
