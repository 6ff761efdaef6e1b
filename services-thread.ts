import { isMainThread, MessageChannel, parentPort, Worker, workerData, type MessagePort } from 'node:worker_threads';
import { createPortChannel, servePort, type PortChannel } from './lib/grpc/port-transport';
import { ConfigError, readRunMode } from './lib/config';
import { createLogger, type LogLevel } from './lib/log';
import { logProcessWarnings } from './lib/runtime/process-warnings';
import { SERVICE_NAMES, type ServiceName } from './lib/runtime/service-module';
import { startTelemetry, stopTelemetry } from './lib/telemetry';
import { metricsExposureWarning, readMetricsSettings, startMetrics } from './lib/metrics';
import { markStart, processStartEpochMs, startMarks, useProcessStart, type StartMark } from './lib/runtime/start-timeline';

/**
 * The all-in-one mode runs the four services on a worker thread and the gateway on the main
 * thread, so the HTTP edge and the services each have a core. The services listen on loopback
 * gRPC as separate components do; the gateway calls them over a MessagePort by default
 * (port-transport.ts: the same protobuf messages, metadata and internal token, without HTTP/2),
 * or over that gRPC with SERVICES_THREAD_TRANSPORT=grpc.
 */
interface ServicesThreadData {
  role: 'services';
  internalToken: string;
  logLevel: LogLevel;
  telemetryName: string;
  /** The process's start (epoch ms): the thread's start-up phases are timed from it. */
  processStart: number;
  /** The services' end of the thread transport. */
  callsPort: MessagePort;
}

type ToServices = { stop: true };
/** `failed` with `configVariable`: a setting refused (ConfigError), which stops the start with exit 2. */
type FromServices = { addresses: Record<ServiceName, string>; startMarks: StartMark[] } | { stopped: true } | { failed: string; configVariable?: string };

export interface ServicesThread {
  /** Where each service listens (loopback, a free port each). */
  addresses: Record<ServiceName, string>;
  /** The thread's start-up phases (start-timeline.ts). */
  startMarks: StartMark[];
  /** The services over a MessagePort: calls in flight are rejected UNAVAILABLE if the thread stops or exits. */
  port: PortChannel;
  /** Drains the services (gRPC calls, workers, outbox) and ends the thread. */
  stop(): Promise<void>;
}

function messageFrom(worker: Worker, want: (m: FromServices) => boolean): Promise<FromServices> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: FromServices) => {
      if ('failed' in m) return done(() => reject(m.configVariable !== undefined ? configError(m.configVariable, m.failed) : new Error(`the services thread failed to start: ${m.failed}`)));
      if (want(m)) done(() => resolve(m));
    };
    const onExit = (code: number) => done(() => reject(new Error(`the services thread exited (${code})`)));
    const done = (settle: () => void) => {
      worker.off('message', onMessage);
      worker.off('exit', onExit);
      settle();
    };
    worker.on('message', onMessage);
    worker.once('exit', onExit);
  });
}

/** The services thread's ConfigError, with its message unchanged, on this thread. */
function configError(variable: string, message: string): ConfigError {
  const error = new ConfigError(variable, '');
  error.message = message;
  return error;
}

/** Starts the services on a worker thread; resolves once every one of them listens. */
export async function startServicesThread(options: { internalToken: string; logLevel: LogLevel; telemetryName: string }): Promise<ServicesThread> {
  const calls = new MessageChannel();
  const data: ServicesThreadData = { role: 'services', ...options, processStart: processStartEpochMs(), callsPort: calls.port2 };
  const worker = new Worker(__filename, { workerData: data, transferList: [calls.port2] });
  const port = createPortChannel(calls.port1);
  worker.once('exit', () => port.close());
  worker.on('error', (err) => {
    process.stderr.write(`${JSON.stringify({ level: 'error', msg: 'services thread crashed', error: String(err) })}\n`);
    process.exit(1);
  });
  const started = await messageFrom(worker, (m) => 'addresses' in m) as Extract<FromServices, { addresses: unknown }>;
  return {
    addresses: started.addresses,
    startMarks: started.startMarks,
    port,
    async stop() {
      const stopped = messageFrom(worker, (m) => 'stopped' in m).catch(() => undefined);
      worker.postMessage({ stop: true } satisfies ToServices);
      await stopped;
      await worker.terminate();
    },
  };
}

/** The worker's side: host the services, report their addresses, stop when asked. */
async function runServices(data: ServicesThreadData): Promise<void> {
  useProcessStart(data.processStart);
  markStart('services: thread running');
  const port = parentPort!;
  const logger = createLogger({ level: data.logLevel });
  logProcessWarnings(logger);
  startTelemetry({ serviceName: data.telemetryName });
  try {
    const { startSystem } = await import('./system');
    markStart('services: runtime modules loaded');
    // The gateway's thread serves METRICS_PORT; this thread's meters are its own, served on the next port.
    const { METRICS_PORT, METRICS_HOST } = readMetricsSettings(process.env);
    const metricsEndpoint = METRICS_PORT === undefined ? undefined : await startMetrics({ serviceName: data.telemetryName, port: METRICS_PORT && METRICS_PORT + 1, host: METRICS_HOST });
    const metricsWarning = metricsEndpoint && metricsExposureWarning(METRICS_HOST, readRunMode(process.env));
    if (metricsWarning) logger.warn(metricsWarning, { metricsHost: METRICS_HOST });
    const system = await startSystem({
      components: [...SERVICE_NAMES], env: process.env, logger, internalToken: data.internalToken,
      remoteAddresses: {}, bindAddress: () => '127.0.0.1:0',
    });
    const addresses = Object.fromEntries(system.services.map((s) => [s.name, s.address])) as Record<ServiceName, string>;
    servePort(data.callsPort, system.local);
    port.on('message', (m: ToServices) => {
      if (!m.stop) return;
      void system.stop().then(stopTelemetry).then(() => metricsEndpoint?.stop()).finally(() => port.postMessage({ stopped: true } satisfies FromServices));
    });
    markStart('services: all listening');
    port.postMessage({ addresses, startMarks: startMarks() } satisfies FromServices);
  } catch (err) {
    port.postMessage({
      failed: err instanceof Error ? err.message : String(err),
      ...(err instanceof ConfigError ? { configVariable: err.variable } : {}),
    } satisfies FromServices);
  }
}

if (!isMainThread && (workerData as ServicesThreadData | undefined)?.role === 'services') {
  void runServices(workerData as ServicesThreadData);
}
