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
import { nameThisThread, SERVICE_THREAD_NAMES, SERVICES_THREAD_NAME } from './lib/runtime/thread-name';
import {
  markStart,
  processStartEpochMs,
  startMarks,
  useProcessStart,
  type StartMark,
} from './lib/runtime/start-timeline';

/**
 * The all-in-one mode runs the gateway on the main thread and the four services on worker threads:
 * one thread for all four, or a thread per service so the process uses up to five cores
 * (SERVICE_THREADS, readServiceThreadLayout). Each service listens on loopback gRPC as a separate
 * component does; the gateway calls each service over a MessagePort by default (port-transport.ts:
 * the same protobuf messages, metadata and internal token, without HTTP/2), or over that gRPC with
 * SERVICES_THREAD_TRANSPORT=grpc. Services on one thread call each other in-process; services on
 * different threads over MessagePorts (a channel per calling thread and callee). On the embedded bus
 * with several threads, the in-process bus lives on the main thread and each service thread reaches
 * it over a port of its own (cross-thread-event-bus.ts); one thread keeps its bus to itself; with
 * KAFKA_BROKERS each thread is a Kafka client of its own.
 */
interface ServiceThreadData {
  role: 'service';
  /** The services this thread hosts. */
  names: ServiceName[];
  internalToken: string;
  logLevel: LogLevel;
  telemetryName: string;
  /** The process's start (epoch ms): the thread's start-up phases are timed from it. */
  processStart: number;
  /** Calls to this thread's services: the gateway's port per service, then one per other thread and service. */
  servedPorts: MessagePort[];
  /** This thread's calls to each service on another thread. */
  peerPorts: Partial<Record<ServiceName, MessagePort>>;
  /** The main thread's event bus (absent with one thread or KAFKA_BROKERS). */
  busPort?: MessagePort;
  /** This thread's metrics port (METRICS_PORT + 1 + the thread's index; 0 when METRICS_PORT is 0). */
  metricsPort?: number;
}

type ToService = { startRelays: true } | { stop: true };
/** `failed` with `configVariable`: a setting refused (ConfigError), which stops the start with exit 2. */
type FromService = { addresses: Partial<Record<ServiceName, string>>; startMarks: StartMark[] } | { stopped: true } | {
  failed: string;
  configVariable?: string;
};

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
      if ('failed' in m) {
        return done(() =>
          reject(
            m.configVariable !== undefined
              ? configError(m.configVariable, m.failed)
              : new Error(`a service thread failed to start: ${m.failed}`),
          )
        );
      }
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

/** The services of each thread: all four on one, or one each (in SERVICE_NAMES order). */
export function threadGroups(layout: 'one' | 'each'): ServiceName[][] {
  return layout === 'one' ? [[...SERVICE_NAMES]] : SERVICE_NAMES.map((n) => [n]);
}

/** The ports of every thread: one channel per caller (the gateway, each other thread) and callee. */
function wirePorts(groups: ServiceName[][]) {
  const served = groups.map(() => [] as MessagePort[]);
  const peers = groups.map(() => ({}) as Partial<Record<ServiceName, MessagePort>>);
  const gateway = {} as Record<ServiceName, MessagePort>;
  groups.forEach((group, callee) => {
    for (const service of group) {
      const fromGateway = new MessageChannel();
      gateway[service] = fromGateway.port1;
      served[callee].push(fromGateway.port2);
      groups.forEach((_, caller) => {
        if (caller === callee) return;
        const channel = new MessageChannel();
        peers[caller][service] = channel.port1;
        served[callee].push(channel.port2);
      });
    }
  });
  return { served, peers, gateway };
}

/** The label of a thread's start-up marks and log lines: its service, or `services` for all four. */
const threadLabel = (names: ServiceName[]) => (names.length === 1 ? names[0] : 'services');

/** Starts the services on worker threads (`layout`); resolves once every one of them listens. */
export async function startServiceThreads(options: {
  internalToken: string;
  logLevel: LogLevel;
  telemetryName: string;
  logger: Logger;
  layout: 'one' | 'each';
}): Promise<ServiceThreads> {
  const { logger, layout, ...threadOptions } = options;
  const groups = threadGroups(layout);
  const wired = wirePorts(groups);
  const shareBus = groups.length > 1 && !process.env.KAFKA_BROKERS?.trim();
  const hub: EventBus | undefined = shareBus ? createInProcessEventBus({ logger }) : undefined;
  const { METRICS_PORT } = readMetricsSettings(process.env);
  const workers = groups.map((names, index) => {
    const bus = hub && new MessageChannel();
    if (bus) serveEventBus(bus.port1, hub!);
    const data: ServiceThreadData = {
      role: 'service',
      names,
      ...threadOptions,
      processStart: processStartEpochMs(),
      servedPorts: wired.served[index],
      peerPorts: wired.peers[index],
      busPort: bus?.port2,
      metricsPort: METRICS_PORT === undefined ? undefined : METRICS_PORT && METRICS_PORT + 1 + index,
    };
    const transferList = [...data.servedPorts, ...Object.values(data.peerPorts), ...(bus ? [bus.port2] : [])];
    const worker = new Worker(__filename, { workerData: data, transferList, name: `grid ${threadLabel(names)}` });
    worker.on('error', (err) => {
      const crash = { level: 'error', msg: 'service thread crashed', services: names, error: String(err) };
      process.stderr.write(`${JSON.stringify(crash)}\n`);
      process.exit(1);
    });
    return worker;
  });
  const ports = Object.fromEntries(groups.flatMap((names, i) =>
    names.map((name) => {
      const port = createPortChannel(wired.gateway[name]);
      workers[i].once('exit', () => port.close());
      return [name, port];
    })
  )) as Record<ServiceName, PortChannel>;
  // Every thread is waited for: a refused start names the first service, in SERVICE_NAMES order, that refused it.
  const settled = await Promise.allSettled(workers.map((w) => messageFrom(w, (m) => 'addresses' in m)));
  const refused = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (refused) {
    await Promise.all(workers.map((w) => w.terminate()));
    throw refused.reason;
  }
  const started = settled.map((s) =>
    (s as PromiseFulfilledResult<FromService>).value as Extract<FromService, { addresses: unknown }>
  );
  // Every thread's subscribers have joined the bus: the outboxes may publish.
  for (const worker of workers) worker.postMessage({ startRelays: true } satisfies ToService);
  markStart('services: all listening');
  const marks = started.flatMap((s) => s.startMarks);
  const firstRunning = Math.min(...marks.filter((m) => m.phase.endsWith(': thread running')).map((m) => m.ms));
  const firstMark = groups.length > 1 ? [{ phase: 'services: thread running', ms: firstRunning }] : [];
  return {
    addresses: Object.assign({}, ...started.map((s) => s.addresses)) as Record<ServiceName, string>,
    startMarks: [...marks, ...firstMark],
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

/** The worker's side: host its services, report their addresses, relay and stop when asked. */
async function runServices(data: ServiceThreadData): Promise<void> {
  useProcessStart(data.processStart);
  const label = threadLabel(data.names);
  markStart(`${label}: thread running`);
  nameThisThread(data.names.length === 1 ? SERVICE_THREAD_NAMES[data.names[0]] : SERVICES_THREAD_NAME);
  const port = parentPort!;
  const logger = createLogger({ level: data.logLevel });
  logProcessWarnings(logger);
  startTelemetry({ serviceName: data.telemetryName });
  try {
    const { startSystem } = await import('./system');
    markStart(`${label}: runtime modules loaded`);
    // The gateway's thread serves METRICS_PORT; each service thread's meters are its own, on a port of its own.
    const { METRICS_HOST } = readMetricsSettings(process.env);
    const metricsEndpoint = data.metricsPort === undefined
      ? undefined
      : await startMetrics({ serviceName: data.telemetryName, port: data.metricsPort, host: METRICS_HOST });
    const metricsWarning = metricsEndpoint && metricsExposureWarning(METRICS_HOST, readRunMode(process.env));
    if (metricsWarning && data.names.includes(SERVICE_NAMES[0])) {
      logger.warn(metricsWarning, { metricsHost: METRICS_HOST });
    }
    const servicePorts = Object.fromEntries(
      Object.entries(data.peerPorts).map(([peer, p]) => [peer, createPortChannel(p)]),
    );
    const system = await startSystem({
      components: data.names,
      env: process.env,
      logger,
      internalToken: data.internalToken,
      remoteAddresses: {},
      bindAddress: () => '127.0.0.1:0',
      servicePorts,
      bus: data.busPort && connectEventBus(data.busPort),
      relaysWhenAsked: true,
    });
    for (const served of data.servedPorts) servePort(served, system.local);
    port.on('message', (m: ToService) => {
      if ('startRelays' in m) return system.startRelays();
      void system.stop().then(stopTelemetry).then(() => metricsEndpoint?.stop())
        .finally(() => port.postMessage({ stopped: true } satisfies FromService));
    });
    markStart(`${label}: thread listening`);
    const addresses = Object.fromEntries(system.services.map((s) => [s.name, s.address]));
    port.postMessage({ addresses, startMarks: startMarks() } satisfies FromService);
  } catch (err) {
    port.postMessage(
      {
        failed: err instanceof Error ? err.message : String(err),
        ...(err instanceof ConfigError ? { configVariable: err.variable } : {}),
      } satisfies FromService,
    );
  }
}

if (!isMainThread && (workerData as ServiceThreadData | undefined)?.role === 'service') {
  void runServices(workerData as ServiceThreadData);
}
