import {
  Server,
  type handleBidiStreamingCall,
  type ServerDuplexStream,
  type ServiceDefinition,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { serverCredentials, type TlsChoice } from './transport-security';
import { ReflectionService } from '@grpc/reflection';
import { HealthImplementation } from 'grpc-health-check';
import { HEALTH_EVENTS, HEALTH_LIVENESS } from './health-probe';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../log';
import { MAX_METADATA_BYTES } from './error-status';
import type { LocalService } from './in-process-client';
import type { BindingRuntime, ServiceBinding } from './service-binding';

// From source (lib/grpc) and from the build (dist/lib/grpc) alike: gen/ sits at the project root.
const DESCRIPTOR_SET = [
  join(__dirname, '..', '..', 'gen', 'descriptor.binpb'),
  join(__dirname, '..', '..', '..', 'gen', 'descriptor.binpb'),
]
  .find((path) => existsSync(path));

export interface GrpcServerOptions {
  /** Component name for logs, e.g. "accounts". */
  name: string;
  bindings: Array<(runtime: BindingRuntime) => ServiceBinding>;
  internalToken: string;
  logger: Logger;
  /** host:port; port 0 picks a free one. */
  address: string;
  /** Extra readiness check (for example the store's ping); polled by the health service. */
  isReady?: () => Promise<boolean>;
  /** How often isReady is polled. */
  readinessIntervalMs?: number;
  /**
   * The event pipeline (consumers, outbox) flows; reported as HEALTH_EVENTS, apart from readiness: a stall degrades, it
   * does not unready.
   */
  eventsFlowing?: () => Promise<boolean>;
  /** Mutual TLS (transport-security.ts): this process's GRPC_TLS_* settings unless given; null for plaintext. */
  tls?: TlsChoice;
}

export interface RunningGrpcServer {
  /** host:port actually bound. */
  address: string;
  /** What this server serves, by fully-qualified service name, for callers in the same process. */
  local: Map<string, LocalService>;
  /** Stops accepting calls, waits for in-flight ones (up to `graceMs`), then closes. */
  shutdown(graceMs?: number): Promise<void>;
}

let descriptorFiles: Buffer[] | undefined;

/**
 * The descriptor set's files, each as its encoded FileDescriptorProto, read once per process.
 * Reflection decodes each file it is given; handing it proto-loader's package definition instead
 * would have it decode every file once per type (hundreds of times), for each service, at start.
 */
function readDescriptorFiles(path: string): Buffer[] {
  return (descriptorFiles ??= splitFileDescriptorSet(readFileSync(path)));
}

/** The `repeated FileDescriptorProto file = 1` of a FileDescriptorSet, undecoded (protobuf wire format). */
export function splitFileDescriptorSet(set: Buffer): Buffer[] {
  const files: Buffer[] = [];
  let at = 0;
  const varint = () => {
    let value = 0;
    for (let shift = 0;; shift += 7) {
      const byte = set[at++];
      if (byte === undefined) throw new Error('descriptor set truncated');
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
  };
  while (at < set.length) {
    const tag = varint();
    if (tag !== 0x0a) throw new Error(`descriptor set: unexpected field tag ${tag}`);
    const length = varint();
    files.push(set.subarray(at, at + length));
    at += length;
  }
  return files;
}

type ReflectionServices = Array<{ definition: ServiceDefinition; implementation: UntypedServiceImplementation }>;

/** The services (v1 and v1alpha) a ReflectionService adds to a server, as it adds them. */
function servicesOf(reflection: ReflectionService): ReflectionServices {
  const added: ReflectionServices = [];
  reflection.addToServer({
    addService: (definition, implementation) => void added.push({ definition, implementation }),
  });
  return added;
}

// The reflection services' definitions, read once per process (each reading parses reflection.proto).
let reflectionDefinitions: ServiceDefinition[] | undefined;
const pathOf = (definition: ServiceDefinition) => Object.values(definition)[0].path;

/**
 * Reflection is served as soon as the server listens, but its index (every file of the set
 * decoded, indexed and encoded again, for each version) is built on the first reflection call:
 * reflection clients are rare, and the start does not pay for them.
 */
function addReflection(server: Server, names: string[], logger: Logger): void {
  if (!DESCRIPTOR_SET) {
    logger.warn('reflection disabled: descriptor set missing (run npm run generate)');
    return;
  }
  // The reflection service reads only `fileDescriptorProtos` of the definitions it is given.
  const definition = {
    files: { fileDescriptorProtos: readDescriptorFiles(DESCRIPTOR_SET) },
  } as unknown as ConstructorParameters<typeof ReflectionService>[0];
  let indexed: ReflectionServices | undefined;
  const served = (path: string) =>
    (indexed ??= servicesOf(new ReflectionService(definition, { services: names })))
      .find((s) => pathOf(s.definition) === path)!.implementation;
  reflectionDefinitions ??= servicesOf(new ReflectionService({}, { services: [] })).map((s) => s.definition);
  for (const version of reflectionDefinitions) {
    const [method] = Object.keys(version);
    server.addService(version, {
      [method]: (call: ServerDuplexStream<unknown, unknown>) =>
        (served(pathOf(version))[method] as handleBidiStreamingCall<unknown, unknown>)(call),
    });
  }
}

/** A gRPC server with standard health checking, reflection and drain on shutdown. */
export async function startGrpcServer(options: GrpcServerOptions): Promise<RunningGrpcServer> {
  // Messages up to 16 MB: an uploaded document (at most 10 MB) travels in one message.
  const server = new Server({
    'grpc.max_metadata_size': MAX_METADATA_BYTES,
    'grpc.max_receive_message_length': 16 * 1024 * 1024,
    // Clients reconnect every few minutes, resolving the name again: replicas added since then get calls too.
    'grpc.max_connection_age_ms': 300_000,
    'grpc.max_connection_age_grace_ms': 30_000,
  });
  let inFlight = 0;
  let drained: (() => void) | undefined;
  const runtime: BindingRuntime = {
    logger: options.logger,
    internalToken: options.internalToken,
    inFlight: {
      started: () => void inFlight++,
      finished: () => {
        inFlight--;
        if (inFlight === 0) drained?.();
      },
    },
  };
  const bindings = options.bindings.map((bind) => bind(runtime));
  for (const b of bindings) server.addService(b.definition, b.implementation);

  const names = bindings.map((b) => b.name);
  const health = new HealthImplementation({
    ...Object.fromEntries(['', ...names].map((n) => [n, 'NOT_SERVING' as const])),
    [HEALTH_LIVENESS]: 'SERVING',
    [HEALTH_EVENTS]: 'NOT_SERVING',
  });
  health.addToServer(server);
  addReflection(server, names, options.logger);

  let serving = true;
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(options.address, serverCredentials(options.tls), (err, p) => (err ? reject(err) : resolve(p)))
  );
  const host = options.address.slice(0, options.address.lastIndexOf(':'));
  const address = `${host}:${port}`;

  const local = new Map(
    bindings.map((
      b,
    ): [string, LocalService] => [b.name, {
      definition: b.definition,
      implementation: b.implementation,
      isServing: () => serving,
    }]),
  );
  const setAll = (status: 'SERVING' | 'NOT_SERVING') => ['', ...names].forEach((n) => health.setStatus(n, status));
  let reported: string | undefined;
  let reportedEvents: string | undefined;
  const refreshReadiness = async () => {
    const status = (await options.isReady?.().catch(() => false)) ?? true ? 'SERVING' : 'NOT_SERVING';
    if (!serving) return;
    if (reported !== undefined && status !== reported) {
      options.logger[status === 'SERVING' ? 'info' : 'warn']('health changed', { component: options.name, status });
    }
    reported = status;
    setAll(status);
    const events = (await options.eventsFlowing?.().catch(() => false)) ?? true ? 'SERVING' : 'NOT_SERVING';
    if (!serving) return;
    if (reportedEvents !== undefined && events !== reportedEvents) {
      options.logger[events === 'SERVING' ? 'info' : 'warn']('event pipeline health changed', {
        component: options.name,
        status: events,
      });
    }
    reportedEvents = events;
    health.setStatus(HEALTH_EVENTS, events);
  };
  await refreshReadiness();
  const readinessTimer = setInterval(() => void refreshReadiness(), options.readinessIntervalMs ?? 5000).unref();
  options.logger.info('grpc server listening', { component: options.name, address, services: names });

  return {
    address,
    local,
    async shutdown(graceMs = 10000) {
      serving = false;
      clearInterval(readinessTimer);
      setAll('NOT_SERVING');
      const idle = inFlight === 0 ? Promise.resolve() : new Promise<void>((r) => (drained = r));
      await Promise.race([idle, new Promise((r) => setTimeout(r, graceMs).unref())]);
      await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
      server.forceShutdown();
    },
  };
}
