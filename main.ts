import { readGrpcTls } from './lib/grpc/transport-security';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import {
  ConfigError,
  readConfig,
  readRunMode,
  readServiceThreadLayout,
  readServicesThreadTransport,
  setting,
} from './lib/config';
import { createLogger } from './lib/log';
import { logProcessWarnings } from './lib/runtime/process-warnings';
import { IN_MEMORY } from './lib/runtime/in-memory';
import { useDataDirectoryKeys } from './lib/runtime/data-directory';
import { assertAddressFree, assertWritableDirectory, sandboxExposure } from './lib/runtime/start-checks';
import { SERVICE_NAMES, type ServiceName } from './lib/runtime/service-module';
import { startTelemetry, stopTelemetry } from './lib/telemetry';
import { metricsExposureWarning, readMetricsSettings, startMetrics } from './lib/metrics';
import { DEFAULT_SANDBOX } from './gateway/sandbox-identity';
import { markStart, startMarks, timelineField } from './lib/runtime/start-timeline';
import type { ServiceThreads } from './services-thread';
import type { RunningSystem } from './system';

/**
 * `node dist/main.js [all|gateway|auth|accounts|quotes-transactions|notifications] [--startup-report]`.
 * `all` (the default) runs every component in this process on the embedded defaults unless
 * MONGODB_URI / KAFKA_BROKERS are set: each service on a worker thread of its own, the gateway on this one.
 * The others run one component each (Kubernetes).
 */
const COMPONENTS = ['all', 'gateway', ...SERVICE_NAMES] as const;
type Component = (typeof COMPONENTS)[number];

const ADDRESS_VARS: Record<ServiceName, string> = {
  auth: 'AUTH_ADDRESS',
  accounts: 'ACCOUNTS_ADDRESS',
  'quotes-transactions': 'QUOTES_TRANSACTIONS_ADDRESS',
  notifications: 'NOTIFICATIONS_ADDRESS',
};

/**
 * `--startup-report`: once started, one JSON line on stderr with the start-up timeline and the process's CPU time
 * (benchmarks read it).
 */
const STARTUP_REPORT = '--startup-report';

function readComponent(): Component {
  const wanted = process.argv.slice(2).find((a) => a !== STARTUP_REPORT) ?? process.env.COMPONENT ?? 'all';
  if (!(COMPONENTS as readonly string[]).includes(wanted)) {
    throw new ConfigError('COMPONENT', `must be one of ${COMPONENTS.join(', ')}, got "${wanted}"`);
  }
  return wanted as Component;
}

function systemConfig(component: Component, env: NodeJS.ProcessEnv) {
  const base = readConfig({
    /**
     * sandbox: simulators, fixed codes and relaxed checks on by default, keys generated in DATA_DIR. production: every
     * sandbox switch off (set on, the start is refused), every key and the API secret from configuration
     */
    GRID_MODE: setting.oneOf(['sandbox', 'production'] as const, 'sandbox'),
    /** Gateway HTTP port */
    PORT: setting.port(8080),
    /** Gateway listen address @default 127.0.0.1 with the published sandbox secret, else 0.0.0.0 */
    HOST: setting.optionalString(),
    /** Where a service run on its own serves gRPC */
    GRPC_ADDRESS: setting.hostPort('0.0.0.0:50051'),
    /** Least severe log level written */
    LOG_LEVEL: setting.oneOf(['debug', 'info', 'warn', 'error'] as const, 'info'),
    /** The sandbox API token id the gateway keeps working @default sandbox-token */
    SANDBOX_API_TOKEN_ID: setting.string(DEFAULT_SANDBOX.tokenId),
    /**
     * The sandbox token's secret (at least 16 characters); the published default keeps the gateway on 127.0.0.1, and
     * with HOST beyond loopback is refused outside the sandbox (MongoDB, or a component alone) and warned about inside
     * it @default sandbox-secret-0000000000
     */
    SANDBOX_API_CLIENT_SECRET: setting.string(DEFAULT_SANDBOX.clientSecret),
    /** The sandbox platform @default Platform:00000000-0000-4000-8000-000000000001 */
    SANDBOX_PLATFORM_ID: setting.string(DEFAULT_SANDBOX.platformId),
    /**
     * MongoDB instead of the embedded store, one database per service (`<MONGODB_DB_PREFIX>_<service>`); needed for
     * more than one replica
     */
    MONGODB_URI: setting.optionalUrl('mongodb:', 'mongodb+srv:'),
    /** Kafka instead of the in-process bus; required for a service run on its own */
    KAFKA_BROKERS: setting.optionalHostPortList(),
  }, env);
  if (base.SANDBOX_API_CLIENT_SECRET.length < 16) {
    throw new ConfigError('SANDBOX_API_CLIENT_SECRET', 'must be at least 16 characters');
  }
  if (
    base.GRID_MODE === 'production' && (component === 'all' || component === 'gateway')
    && base.SANDBOX_API_CLIENT_SECRET === DEFAULT_SANDBOX.clientSecret
  ) {
    throw new ConfigError(
      'SANDBOX_API_CLIENT_SECRET',
      'is the published sandbox secret, which GRID_MODE=production '
        + 'refuses: set a secret of your own (at least 16 characters)',
    );
  }
  const distributed = component !== 'all';
  if (distributed && component !== 'gateway' && !base.KAFKA_BROKERS) {
    // An in-process bus would keep this service's events inside this process: nobody else would get them.
    throw new ConfigError(
      'KAFKA_BROKERS',
      `is required when ${component} runs on its own: its events must `
        + `reach the other components (only \`all\` runs on an in-process bus)`,
    );
  }
  const internalToken = distributed
    ? readConfig({
      /**
       * Bearer token of internal gRPC calls, shared by all components; required when a component runs on its own
       * @default generated per process (all)
       */
      INTERNAL_TOKEN: setting.string(),
    }, env).INTERNAL_TOKEN
    : env.INTERNAL_TOKEN;
  if (internalToken !== undefined && Buffer.byteLength(internalToken.trim()) < 32) {
    throw new ConfigError('INTERNAL_TOKEN', 'must be at least 32 bytes (e.g. `openssl rand -base64 48`)');
  }
  const remoteAddresses: Partial<Record<ServiceName, string>> = {};
  if (distributed) {
    for (const name of SERVICE_NAMES.filter((n) => n !== component)) {
      remoteAddresses[name] = readConfig(
        { [ADDRESS_VARS[name]]: setting.hostPort() },
        env,
      )[ADDRESS_VARS[name]] as string;
    }
  }
  return { base: { ...base, HOST: gatewayHost(base) }, internalToken, remoteAddresses };
}

/**
 * The published sandbox credentials are a convenience for a laptop: while they are in use and HOST
 * is not set, the gateway listens on loopback only.
 */
function gatewayHost(base: { HOST?: string; SANDBOX_API_CLIENT_SECRET: string }): string {
  if (base.HOST) return base.HOST;
  return base.SANDBOX_API_CLIENT_SECRET === DEFAULT_SANDBOX.clientSecret ? '127.0.0.1' : '0.0.0.0';
}

/** The data directory beside the project (dist/main.js is one level down). */
const DEFAULT_DATA_DIR = resolve(__dirname, '..', 'data');

/**
 * On the embedded store, data lives in DATA_DIR (durable by default) together with the keys that
 * seal it when they are not configured. Answers the directory, or undefined when on MongoDB.
 */
function prepareDataDirectory(
  component: Component,
  env: NodeJS.ProcessEnv,
): { dataDir: string; keysFromDataDir: string[] } | undefined {
  // The gateway keeps nothing: it needs no directory, and starts on a read-only file system.
  if (env.MONGODB_URI?.trim() || component === 'gateway') return undefined;
  const dataDir = env.DATA_DIR?.trim() || DEFAULT_DATA_DIR;
  env.DATA_DIR = dataDir;
  if (dataDir === IN_MEMORY) return { dataDir, keysFromDataDir: [] };
  assertWritableDirectory(dataDir);
  // Production takes every key from configuration (each service says which one is missing).
  if (readRunMode(env) === 'production') return { dataDir, keysFromDataDir: [] };
  const services = component === 'all' ? SERVICE_NAMES : [component];
  return { dataDir, keysFromDataDir: useDataDirectoryKeys(dataDir, env, services) };
}

/** Refuses, or warns about, a gateway that would serve the published sandbox secret beyond this machine. */
function checkSandboxExposure(
  component: Component,
  base: { HOST: string; SANDBOX_API_CLIENT_SECRET: string; MONGODB_URI?: string },
  logger: ReturnType<typeof createLogger>,
): void {
  const exposure = sandboxExposure({
    host: base.HOST,
    publishedSecret: base.SANDBOX_API_CLIENT_SECRET === DEFAULT_SANDBOX.clientSecret,
    component,
    mongodb: Boolean(base.MONGODB_URI),
  });
  if (exposure === 'exposed-production') {
    throw new ConfigError(
      'SANDBOX_API_CLIENT_SECRET',
      `is the published sandbox secret while HOST=${base.HOST} serves the `
        + 'gateway beyond this machine: anyone who read the README could move money. '
        + 'Set a secret of your own (at least 16 characters), or HOST=127.0.0.1',
    );
  }
  if (exposure === 'exposed-sandbox') {
    const warning = `the published sandbox secret is served on HOST=${base.HOST}: anyone who can reach this `
      + 'machine can use the sandbox API with it. Set SANDBOX_API_CLIENT_SECRET, or HOST=127.0.0.1';
    process.stderr.write(`WARNING: ${warning}\n`);
    logger.warn(warning, { exposure });
  }
}

async function main(): Promise<void> {
  markStart('main: node bootstrapped', performance.nodeTiming.bootstrapComplete);
  markStart('main: modules loaded');
  const component = readComponent();
  const { base, remoteAddresses, ...configured } = systemConfig(component, process.env);
  const servicesTransport = component === 'all' ? readServicesThreadTransport(process.env) : undefined;
  const threadLayout = component === 'all' ? readServiceThreadLayout(process.env, availableParallelism()) : undefined;
  const logger = createLogger({ level: base.LOG_LEVEL });
  logProcessWarnings(logger);
  const servesGateway = component === 'all' || component === 'gateway';
  if (servesGateway) checkSandboxExposure(component, base, logger);
  // Before anything touches the data directory: a taken address stops the start at once.
  if (servesGateway) await assertAddressFree(base.HOST, base.PORT);
  if (component !== 'all' && component !== 'gateway') {
    const [host, port] = [
      base.GRPC_ADDRESS.slice(0, base.GRPC_ADDRESS.lastIndexOf(':')),
      Number(base.GRPC_ADDRESS.slice(base.GRPC_ADDRESS.lastIndexOf(':') + 1)),
    ];
    await assertAddressFree(host.replace(/^\[|\]$/g, ''), port, 'set GRPC_ADDRESS to a free address');
  }
  markStart('main: configuration and address checked');
  const data = prepareDataDirectory(component, process.env);
  markStart('main: data directory and keys ready');
  // Each service's settings and keys, before any store or broker is waited for. In `all` each
  // service thread checks its own first thing (a ConfigError from there stops the start the same way),
  // so this thread never loads the services' code.
  if (component !== 'gateway' && component !== 'all') {
    const { SERVICE_REGISTRY } = await import('./services/service-registry');
    (await SERVICE_REGISTRY[component]()).checkSettings(process.env);
  }
  // Mutual TLS between components (GRPC_TLS_*): files, PEMs and key checked before anything listens.
  if (readGrpcTls(process.env)) logger.info('gRPC between components: mutual TLS');
  // Embedded mode: a token of this run's own unless one is configured.
  const internalToken = configured.internalToken ?? randomBytes(32).toString('base64url');
  if (servesGateway && !process.env.HOST?.trim() && base.HOST === '127.0.0.1') {
    logger.warn(
      'the published sandbox credentials are in use: the gateway listens on '
        + '127.0.0.1 only (set SANDBOX_API_CLIENT_SECRET, or HOST to listen elsewhere)',
    );
  }
  const telemetryName = component === 'all' ? 'grid-payments' : `grid-${component}`;
  const { METRICS_PORT, METRICS_HOST } = readMetricsSettings(process.env);

  // All-in-one: each service gets a thread of its own and is reached over a MessagePort (or by
  // address, as when separate). The threads start first; this one loads the gateway's code meanwhile
  // (modules are loaded when used, so no thread loads another's).
  // (Awaited before anything else is imported: the spawn must not wait for this thread's loading.)
  const servicesStarting = component === 'all'
    ? (await import('./services-thread')).startServiceThreads({
      internalToken,
      logLevel: base.LOG_LEVEL,
      telemetryName,
      logger,
      layout: threadLayout!,
    })
    : undefined;
  if (servicesStarting) markStart('main: services thread spawned');
  servicesStarting?.catch(() => undefined); // awaited below
  startTelemetry({ serviceName: telemetryName });
  const metricsEndpoint = METRICS_PORT === undefined
    ? undefined
    : await startMetrics({ serviceName: telemetryName, port: METRICS_PORT, host: METRICS_HOST });
  const metricsWarning = metricsEndpoint && metricsExposureWarning(METRICS_HOST, readRunMode(process.env));
  if (metricsWarning) logger.warn(metricsWarning, { metricsHost: METRICS_HOST });
  const { startSystem, loadGatewayModules } = await import('./system');
  if (servesGateway) await loadGatewayModules();
  markStart('main: gateway modules loaded');
  const servicesThread: ServiceThreads | undefined = await servicesStarting;
  if (servicesThread) markStart('main: services thread listening');
  const components = component === 'all' ? (['gateway'] as const) : ([component] as const);
  const system: RunningSystem = await startSystem({
    components: [...components],
    env: process.env,
    logger,
    internalToken,
    remoteAddresses: servicesThread?.addresses ?? remoteAddresses,
    servicePorts: servicesTransport === 'port' ? servicesThread?.ports : undefined,
    bindAddress: () => base.GRPC_ADDRESS,
    gateway: components.includes('gateway' as never)
      ? {
        host: base.HOST,
        port: base.PORT,
        sandbox: {
          platformId: base.SANDBOX_PLATFORM_ID,
          tokenId: base.SANDBOX_API_TOKEN_ID,
          clientSecret: base.SANDBOX_API_CLIENT_SECRET,
        },
      }
      : undefined,
  });
  markStart('main: started (sandbox credentials ensured)');
  const timeline = {
    component,
    msSinceProcessStart: timelineField([...startMarks(), ...(servicesThread?.startMarks ?? [])]),
  };
  logger.debug('start-up timeline', timeline);
  if (process.argv.includes(STARTUP_REPORT)) {
    const cpu = process.cpuUsage();
    process.stderr.write(
      `${JSON.stringify({ startupReport: { ...timeline, cpuMs: Math.round((cpu.user + cpu.system) / 1000) } })}\n`,
    );
  }
  logger.info('started', {
    component,
    store: base.MONGODB_URI
      ? 'mongodb'
      : data?.dataDir === IN_MEMORY
      ? 'embedded, in memory (nothing survives a restart)'
      : 'embedded, durable',
    ...(data && data.dataDir !== IN_MEMORY ? { dataDir: data.dataDir, keysFromDataDir: data.keysFromDataDir } : {}),
    bus: base.KAFKA_BROKERS ? 'kafka' : 'in-process',
    ...(servicesTransport ? { servicesTransport } : {}),
    ...(threadLayout ? { serviceThreads: threadLayout } : {}),
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('draining', { signal });
    await system.stop();
    await servicesThread?.stop();
    await stopTelemetry();
    await metricsEndpoint?.stop();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

// One line that says why, then a non-zero exit: a bad setting (2), anything else that stops the start (1).
main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`cannot start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
