import type { MessagePort } from 'node:worker_threads';
import {
  Metadata,
  status as GrpcStatus,
  type sendUnaryData,
  type ServerUnaryCall,
  type ServiceDefinition,
  type ServiceError,
} from '@grpc/grpc-js';
import { fromServiceError } from './error-status';
import { clientOf, outgoingHeaders, type ClientOptions, type ServiceClient } from './grpc-client';
import type { LocalService } from './in-process-client';

/**
 * Unary calls between two threads of one process over a MessagePort: the `all` mode's hops from
 * the gateway (main thread) to each service (a worker thread each) and between services, without
 * grpc-js and HTTP/2.
 * A call carries what it carries over gRPC: the method path, the request's protobuf bytes, the
 * metadata (internal token, caller context, trace context) and a deadline. The reply is the
 * response's protobuf bytes or a gRPC status with its trailers, so errors (grpc-status-details-bin
 * included) turn back into the AppError the network client would raise.
 *
 * Messages are sent in batches, one postMessage per event-loop turn and direction (see
 * `batcher`): each postMessage wakes the other thread, which under load cost more than the
 * calls' encoding.
 */

/** One call, client → server. `headers` are the call's metadata, `deadline` epoch ms. */
interface PortCall {
  id: number;
  path: string;
  request: Uint8Array;
  headers: Record<string, string>;
  deadline: number;
}

/** A failed call's status as grpc-js would deliver it; trailer values are strings or bytes (-bin keys). */
interface PortStatus {
  code: GrpcStatus;
  details: string;
  trailers: Record<string, string | Uint8Array>;
}

type PortReply = { id: number; response: Uint8Array } | { id: number; status: PortStatus };

const UNAVAILABLE: PortStatus = {
  code: GrpcStatus.UNAVAILABLE,
  details: "the service's thread is not serving",
  trailers: {},
};

/**
 * The bytes in an ArrayBuffer of their own, which postMessage can transfer instead of copying.
 * A Buffer from protobuf encoding usually is a slice of a shared pool: cloning it would copy the
 * whole pool, transferring it would detach the pool. One copy of the message's own bytes is less.
 */
function ownBytes(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
      && !(bytes.buffer instanceof SharedArrayBuffer)
    ? bytes
    : new Uint8Array(bytes);
}

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * Collects the messages of one event-loop turn and posts them as one array (at `setImmediate`,
 * right after the turn's I/O callbacks), their byte buffers transferred.
 */
export function batcher<T>(port: MessagePort): (message: T, bytes?: Uint8Array) => void {
  let batch: T[] = [];
  // A set: a buffer listed twice would make postMessage throw.
  let transfer = new Set<ArrayBuffer>();
  const flush = () => {
    const [messages, buffers] = [batch, transfer];
    batch = [];
    transfer = new Set();
    port.postMessage(messages, [...buffers]);
  };
  return (message, bytes) => {
    if (batch.length === 0) setImmediate(flush);
    batch.push(message);
    if (bytes) transfer.add(bytes.buffer as ArrayBuffer);
  };
}

function serviceError(status: PortStatus): ServiceError {
  const metadata = new Metadata();
  for (const [key, value] of Object.entries(status.trailers)) {
    metadata.set(key, typeof value === 'string' ? value : asBuffer(value));
  }
  return Object.assign(new Error(`${status.code} ${GrpcStatus[status.code]}: ${status.details}`), {
    code: status.code,
    details: status.details,
    metadata,
  });
}

interface Pending {
  resolve(response: Buffer): void;
  reject(status: PortStatus): void;
  timer: NodeJS.Timeout;
}

/** The caller's end of the port: every call in flight, rejected UNAVAILABLE if the other side goes away. */
export interface PortChannel {
  call(path: string, request: Uint8Array, headers: Record<string, string>, timeoutMs: number): Promise<Buffer>;
  /** Calls waiting for their reply. */
  readonly pending: number;
  /** Rejects every call in flight and every later one UNAVAILABLE (the thread stopped or exited). */
  close(): void;
}

export function createPortChannel(port: MessagePort): PortChannel {
  const pending = new Map<number, Pending>();
  let nextId = 0;
  let open = true;
  const send = batcher<PortCall>(port);
  port.on('message', (replies: PortReply[]) => {
    for (const reply of replies) {
      const call = pending.get(reply.id);
      if (!call) continue; // past its deadline: already rejected
      pending.delete(reply.id);
      clearTimeout(call.timer);
      if ('response' in reply) call.resolve(asBuffer(reply.response));
      else call.reject(reply.status);
    }
  });
  const close = () => {
    if (!open) return;
    open = false;
    for (const call of pending.values()) {
      clearTimeout(call.timer);
      call.reject(UNAVAILABLE);
    }
    pending.clear();
    port.close();
  };
  port.once('close', close);
  // Calls in flight hold the process through their deadline timers; an idle port holds nothing.
  port.unref();
  return {
    get pending() {
      return pending.size;
    },
    close,
    call(path, request, headers, timeoutMs) {
      return new Promise((resolve, reject) => {
        if (!open) return reject(UNAVAILABLE);
        const id = nextId++;
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(
            { code: GrpcStatus.DEADLINE_EXCEEDED, details: 'Deadline exceeded', trailers: {} } satisfies PortStatus,
          );
        }, timeoutMs);
        pending.set(id, { resolve, reject, timer });
        const bytes = ownBytes(request);
        send({ id, path, request: bytes, headers, deadline: Date.now() + timeoutMs }, bytes);
      });
    },
  };
}

/** A client with the network client's contract (grpc-client.ts) over a PortChannel. */
export function createPortClient<D extends ServiceDefinition>(
  definition: D,
  channel: PortChannel,
  options: ClientOptions,
): ServiceClient<D> {
  const timeoutMs = options.timeoutMs ?? 10000;
  return clientOf(
    definition,
    (_method, spec, request, ctx) =>
      channel.call(spec.path, spec.requestSerialize(request), outgoingHeaders(ctx, options.internalToken), timeoutMs)
        .then(
          (response) => {
            try {
              return spec.responseDeserialize(response);
            } catch {
              // As grpc-js answers a response it cannot parse.
              throw fromServiceError(
                serviceError({ code: GrpcStatus.INTERNAL, details: 'Failed to parse server response', trailers: {} }),
              );
            }
          },
          (status: PortStatus) => {
            throw fromServiceError(serviceError(status));
          },
        ),
  );
}

type UnaryImplementation = (
  call: Pick<ServerUnaryCall<unknown, unknown>, 'request' | 'metadata'>,
  callback: sendUnaryData<unknown>,
) => void;
interface Method {
  service: LocalService;
  handle: UnaryImplementation;
  spec: ServiceDefinition[string];
}

/**
 * The services' end: each call is dispatched to the implementation the service's gRPC server
 * serves (service-binding.ts: internal token check, trace context, error mapping, drain
 * tracking), while that service serves; otherwise it is answered UNAVAILABLE, as a stopped
 * server would be. `services` may gain entries after this starts (services bind one by one).
 */
export function servePort(port: MessagePort, services: ReadonlyMap<string, LocalService>): { close(): void } {
  const methods = new Map<string, Method | null>();
  const methodOf = (path: string): Method | null => {
    let found = methods.get(path);
    if (found !== undefined) return found;
    const service = services.get(path.split('/')[1] ?? '');
    if (!service) return null; // not bound yet, or unknown: not remembered
    const entry = Object.entries(service.definition).find(([, spec]) => spec.path === path);
    found = entry
      ? { service, handle: service.implementation[entry[0]] as unknown as UnaryImplementation, spec: entry[1] }
      : null;
    methods.set(path, found);
    return found;
  };
  const send = batcher<PortReply>(port);
  const reply = (id: number, status: PortStatus) => send({ id, status });
  port.on('message', (calls: PortCall[]) => {
    for (const call of calls) dispatch(call);
  });
  const dispatch = (call: PortCall) => {
    const method = methodOf(call.path);
    if (!method) {
      const known = services.has(call.path.split('/')[1] ?? '');
      return reply(
        call.id,
        known
          ? {
            code: GrpcStatus.UNIMPLEMENTED,
            details: `The server does not implement the method ${call.path}`,
            trailers: {},
          }
          : UNAVAILABLE,
      );
    }
    if (!method.service.isServing()) return reply(call.id, UNAVAILABLE);
    if (Date.now() >= call.deadline) {
      return reply(call.id, { code: GrpcStatus.DEADLINE_EXCEEDED, details: 'Deadline exceeded', trailers: {} });
    }
    let request: unknown;
    const metadata = new Metadata();
    try {
      request = method.spec.requestDeserialize(asBuffer(call.request));
      for (const [key, value] of Object.entries(call.headers)) metadata.set(key, value);
    } catch {
      return reply(call.id, { code: GrpcStatus.INTERNAL, details: 'Request message parsing error', trailers: {} });
    }
    method.handle({ request, metadata }, (err, response) => {
      if (err) {
        const status = err as Partial<ServiceError>;
        const trailers = (status.metadata?.getMap() ?? {}) as Record<string, string | Uint8Array>;
        return reply(call.id, {
          code: status.code ?? GrpcStatus.UNKNOWN,
          details: status.details ?? status.message ?? '',
          trailers,
        });
      }
      const bytes = ownBytes(method.spec.responseSerialize(response));
      send({ id: call.id, response: bytes }, bytes);
    });
  };
  port.unref();
  return { close: () => port.close() };
}
