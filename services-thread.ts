import { isMainThread, MessageChannel, parentPort, Worker, workerData, type MessagePort } from 'node:worker_threads';
import { createPortChannel, servePort, type PortChannel } from './lib/grpc/port-transport';
import { connectEventBus, serveEventBus } from './lib/bus/cross-thread-event-bus';
import { createInProcessEventBus } from './lib/bus/in-process-event-bus';
import type { EventBus } from './lib/bus/event-bus';
import { ConfigError, readRunMode } from './lib/config';
import { createLogger, type Logger, type LogLevel } from './lib/log';
import { logProcessWarnings } from './lib/runtime/process-warnings';
import { SERVICE_NAMES, type ServiceName } from './lib/runtime/service-module';
import { startTelemetry, stopTelemetry } from './lib/telemetry';
import { metricsExposureWarning, readMetricsSettings, startMetrics } from './lib/metrics';
import { nameThisThread, SERVICE_THREAD_NAMES } from './lib/runtime/thread-name';
import { markStart, processStartEpochMs, startMarks, useProcessStart, type StartMark } from './lib/runtime/start-timeline';

/**
 * The all-in-one mode runs each of the four services on a worker thread of its own and the gateway
 * on the main thread, so the process uses up to five cores. Each service listens on loopback gRPC
 * as a separate component does; the gateway calls each service over a MessagePort by default
 * (port-transport.ts: the same protobuf messages, metadata and internal token, without HTTP/2), or
 * over that gRPC with SERVICES_THREAD_TRANSPORT=grpc; services call each other over MessagePorts
 * (a channel per caller and callee). On the embedded bus, the in-process bus lives on the main
 * thread and each service thread reaches it over a port of its own (cross-thread-event-bus.ts);
 * with KAFKA_BROKERS each thread is a Kafka client of its own.
 */
interface ServiceThreadData {
  role: 'service';
  name: ServiceName;
  internalToken: string;
  logLevel: LogLevel;
  telemetryName: string;
  /** The process's start (epoch ms): the thread's start-up phases are timed from it. */
  processStart: number;
  /** Calls to this service: the gateway's port, then one per other service. */
  servedPorts: MessagePort[];
  /** This service's calls to each other service. */
  peerPorts: Partial<Record<ServiceName, MessagePort>>;
  /** The main thread's event bus (absent with KAFKA_BROKERS). */
  busPort?: MessagePort;
  /** This thread's metrics port (METRICS_PORT + 1 + its index in SERVICE_NAMES; 0 when METRICS_PORT is 0). */
  metricsPort?: number;
}

type ToService = { startRelays: true } | { stop: true };
/** `failed` with `configVariable`: a setting refused (ConfigError), which stops the start with exit 2. */
type FromService = { address: string; startMarks: StartMark[] } | { stopped: true } | { failed: string; configVariable?: string };

export interface ServiceThreads {
  /** Where each service listens (loopback, a free port each). */
  addresses: Record<ServiceName, string>;
  /** The threads' start-up phases (start-timeline.ts). */
  startMarks: StartMark[];
  /** Each service over a MessagePort: calls in flight are rejected UNAVAILABLE if its thread stops or exits. */
  ports: Record<ServiceName, PortChannel>;
  /** Drains the services one after the other (gRPC calls, workers, outbox), ends their threads, closes the bus. */
  stop(): Promise<void>;
}

function messageFrom(worker: Worker, want: (m: FromService) => boolean): Promise<FromService> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: FromService) => {
      if ('failed' in m) return done(() => reject(m.configVariable !== undefined ? configError(m.configVariable, m.failed) : new Error(`a service thread failed to start: ${m.failed}`)));
      if (want(m)) done(() => resolve(m));
    };
    const onExit = (code: number) => done(() => reject(new Error(`a service thread exited (${code})`)));
    const done = (settle: () => void) => {
      worker.off('message', onMessage);
      worker.off('exit', onExit);
      settle();
    };
    worker.on('message', onMessage);
    worker.once('exit', onExit);
  });
}

/** A service thread's ConfigError, with its message unchanged, on this thread. */
function configError(variable: string, message: string): ConfigError {
  const error = new ConfigError(variable, '');
  error.message = message;
  return error;
}

/** The ports of every thread: one channel per caller (the gateway, each service) and callee. */
function wirePorts() {
  const served = Object.fromEntries(SERVICE_NAMES.map((n) => [n, [] as MessagePort[]])) as Record<ServiceName, MessagePort[]>;
  const peers = Object.fromEntries(SERVICE_NAMES.map((n) => [n, {}])) as Record<ServiceName, Partial<Record<ServiceName, MessagePort>>>;
  const gateway = {} as Record<ServiceName, MessagePort>;
  for (const callee of SERVICE_NAMES) {
    const fromGateway = new MessageChannel();
    gateway[callee] = fromGateway.port1;
    served[callee].push(fromGateway.port2);
    for (const caller of SERVICE_NAMES.filter((n) => n !== callee)) {
      const channel = new MessageChannel();
      peers[caller][callee] = channel.port1;
      served[callee].push(channel.port2);
    }
  }
  return { served, peers, gateway };
}

/** Starts each service on a worker thread of its own; resolves once every one of them listens. */
export async function startServiceThreads(options: { internalToken: string; logLevel: LogLevel; telemetryName: string; logger: Logger }): Promise<ServiceThreads> {
  const { logger, ...threadOptions } = options;
  const wired = wirePorts();
  const hub: EventBus | undefined = process.env.KAFKA_BROKERS?.trim() ? undefined : createInProcessEventBus({ logger });
  const { METRICS_PORT } = readMetricsSettings(process.env);
  const workers = SERVICE_NAMES.map((name, index) => {
    const bus = hub && new MessageChannel();
    if (bus) serveEventBus(bus.port1, hub!);
    const data: ServiceThreadData = {
      role: 'service', name, ...threadOptions, processStart: processStartEpochMs(),
      servedPorts: wired.served[name], peerPorts: wired.peers[name], busPort: bus?.port2,
      metricsPort: METRICS_PORT === undefined ? undefined : METRICS_PORT && METRICS_PORT + 1 + index,
    };
    const transferList = [...data.servedPorts, ...Object.values(data.peerPorts), ...(bus ? [bus.port2] : [])];
    const worker = new Worker(__filename, { workerData: data, transferList, name: `grid ${name}` });
    worker.on('error', (err) => {
      process.stderr.write(`${JSON.stringify({ level: 'error', msg: 'service thread crashed', service: name, error: String(err) })}\n`);
      process.exit(1);
    });
    return worker;
  });
  const ports = Object.fromEntries(SERVICE_NAMES.map((name, i) => {
    const port = createPortChannel(wired.gateway[name]);
    workers[i].once('exit', () => port.close());
    return [name, port];
  })) as Record<ServiceName, PortChannel>;
  // Every thread is waited for: a refused start names the first service, in SERVICE_NAMES order, that refused it.
  const settled = await Promise.allSettled(workers.map((w) => messageFrom(w, (m) => 'address' in m)));
  const refused = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (refused) {
    await Promise.all(workers.map((w) => w.terminate()));
    throw refused.reason;
  }
  const started = settled.map((s) => (s as PromiseFulfilledResult<FromService>).value as Extract<FromService, { address: string }>);
  // Every thread's subscribers have joined the bus: the outboxes may publish.
  for (const worker of workers) worker.postMessage({ startRelays: true } satisfies ToService);
  markStart('services: all listening');
  const marks = started.flatMap((s) => s.startMarks);
  const firstRunning = Math.min(...marks.filter((m) => m.phase.endsWith(': thread running')).map((m) => m.ms));
  return {
    addresses: Object.fromEntries(SERVICE_NAMES.map((n, i) => [n, started[i].address])) as Record<ServiceName, string>,
    startMarks: [...marks, { phase: 'services: thread running', ms: firstRunning }],
    ports,
    async stop() {
      // One after the other, in the order one thread stopped them all: a service's last outbox flush
      // still reaches the services after it.
      for (const worker of workers) {
        const stopped = messageFrom(worker, (m) => 'stopped' in m).catch(() => undefined);
        worker.postMessage({ stop: true } satisfies ToService);
        await stopped;
        await worker.terminate();
      }
      await hub?.close();
    },
  };
}

/** The worker's side: host one service, report its address, relay and stop when asked. */
async function runService(data: ServiceThreadData): Promise<void> {
  useProcessStart(data.processStart);
  markStart(`${data.name}: thread running`);
  nameThisThread(SERVICE_THREAD_NAMES[data.name]);
  const port = parentPort!;
  const logger = createLogger({ level: data.logLevel });
  logProcessWarnings(logger);
  startTelemetry({ serviceName: data.telemetryName });
  try {
    const { startSystem } = await import('./system');
    markStart(`${data.name}: runtime modules loaded`);
    // The gateway's thread serves METRICS_PORT; each service thread's meters are its own, on a port of its own.
    const { METRICS_HOST } = readMetricsSettings(process.env);
    const metricsEndpoint = data.metricsPort === undefined ? undefined : await startMetrics({ serviceName: data.telemetryName, port: data.metricsPort, host: METRICS_HOST });
    const metricsWarning = metricsEndpoint && metricsExposureWarning(METRICS_HOST, readRunMode(process.env));
    if (metricsWarning && data.name === SERVICE_NAMES[0]) logger.warn(metricsWarning, { metricsHost: METRICS_HOST });
    const servicePorts = Object.fromEntries(Object.entries(data.peerPorts).map(([peer, p]) => [peer, createPortChannel(p)]));
    const system = await startSystem({
      components: [data.name], env: process.env, logger, internalToken: data.internalToken,
      remoteAddresses: {}, bindAddress: () => '127.0.0.1:0', servicePorts,
      bus: data.busPort && connectEventBus(data.busPort), relaysWhenAsked: true,
    });
    for (const served of data.servedPorts) servePort(served, system.local);
    port.on('message', (m: ToService) => {
      if ('startRelays' in m) return system.startRelays();
      void system.stop().then(stopTelemetry).then(() => metricsEndpoint?.stop()).finally(() => port.postMessage({ stopped: true } satisfies FromService));
    });
    markStart(`${data.name}: thread listening`);
    port.postMessage({ address: system.services[0].address, startMarks: startMarks() } satisfies FromService);
  } catch (err) {
    port.postMessage({
      failed: err instanceof Error ? err.message : String(err),
      ...(err instanceof ConfigError ? { configVariable: err.variable } : {}),
    } satisfies FromService);
  }
}

if (!isMainThread && (workerData as ServiceThreadData | undefined)?.role === 'service') {
  void runService(workerData as ServiceThreadData);
}
