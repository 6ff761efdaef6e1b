import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  metrics,
  type Attributes,
  type Counter,
  type Histogram,
  type Meter,
  type ObservableGauge,
  type ObservableResult,
} from '@opentelemetry/api';
import type { MeterProvider } from '@opentelemetry/sdk-metrics';
import { readConfig, setting } from './config';

/**
 * Prometheus metrics through the OpenTelemetry metrics API. Nothing is recorded until
 * `startMetrics` installs a meter provider (METRICS_PORT set): until then every instrument is the
 * API's no-op, so the hot paths pay a function call. Attributes are bounded: operation ids and
 * RPC method names, never raw paths or ids (docs/metrics.md lists every series).
 */
export function readMetricsSettings(env: NodeJS.ProcessEnv) {
  return readConfig({
    /**
     * Port of the Prometheus endpoint `/metrics` (a separate listener from the API and gRPC); unset: no metrics are
     * served or recorded. In the all-in-one process each service's thread serves a port of its own after it: auth + 1,
     * accounts + 2, quotes-transactions + 3, notifications + 4
     */
    METRICS_PORT: setting.optionalInt(0, 65535),
    /** Address the metrics listener binds */
    METRICS_HOST: setting.string('0.0.0.0'),
  }, env);
}

/**
 * Production listeners on every interface expose the metrics (service names, operation counts,
 * latencies) to whatever reaches the machine: a warning to log, or undefined. METRICS_HOST=127.0.0.1
 * (or the address the scraper uses) limits them; docs/deployment.md's production checklist says so.
 */
export function metricsExposureWarning(host: string, mode: string): string | undefined {
  const everyInterface = host === '0.0.0.0' || host === '::' || host === '' || host === '[::]';
  return mode === 'production' && everyInterface
    ? `the metrics listener binds every interface (METRICS_HOST=${
      host || '0.0.0.0'
    }): set METRICS_HOST to a loopback or internal address unless the port is firewalled`
    : undefined;
}

export interface MetricsEndpoint {
  /** The port actually bound (METRICS_PORT=0 picks a free one). */
  port: number;
  stop(): Promise<void>;
}

let provider: MeterProvider | undefined;
let cached: Instruments | undefined;

/** Installs the meter provider and serves `GET /metrics`; once per process (thread). */
export async function startMetrics(
  options: { serviceName: string; port: number; host?: string },
): Promise<MetricsEndpoint> {
  // The SDK is loaded only when metrics are served (METRICS_PORT): a start without them does not pay for it.
  const { PrometheusExporter } = require(
    '@opentelemetry/exporter-prometheus',
  ) as typeof import('@opentelemetry/exporter-prometheus');
  const { MeterProvider } = require('@opentelemetry/sdk-metrics') as typeof import('@opentelemetry/sdk-metrics');
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const exporter = new PrometheusExporter({ preventServerStart: true, withoutScopeInfo: true });
  provider = new MeterProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    readers: [exporter],
  });
  metrics.setGlobalMeterProvider(provider);
  cached = undefined;
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET' && req.url?.split('?')[0] === '/metrics') {
      return exporter.getMetricsRequestHandler(req, res);
    }
    res.statusCode = 404;
    res.end('metrics are at /metrics\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await provider?.shutdown();
      provider = undefined;
      cached = undefined;
      metrics.disable();
    },
  };
}

const meter = (): Meter => metrics.getMeter('grid-payments');

/** Latency buckets in seconds: 1 ms to 10 s. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function createInstruments() {
  const m = meter();
  const latency = (name: string, description: string): Histogram =>
    m.createHistogram(name, { description, unit: 's', advice: { explicitBucketBoundaries: LATENCY_BUCKETS } });
  return {
    httpRequests: latency(
      'http.server.request.duration.seconds',
      'REST requests by operation id, method and status code',
    ),
    rpcServer: latency('rpc.server.duration.seconds', 'gRPC calls served, by service, method and status code'),
    storeOperations: latency(
      'store.operation.duration.seconds',
      'Document store operations by collection and operation',
    ),
    webhookDeliveries: m.createCounter('webhook.deliveries', {
      description: 'Webhook delivery attempts by outcome (ACKNOWLEDGED, REJECTED, '
        + 'UNREACHABLE, NO_ENDPOINT) and the status they left the delivery in',
    }),
    webhookEventsUnrecorded: m.createCounter('webhook.events.unrecorded', {
      description: 'Events of a webhook type (reference, or extension whether opted into or not) not recorded '
        + 'as a delivery because the platform had no endpoint when they were consumed, by type',
    }),
    paymentTransitions: m.createCounter('payments.transitions', {
      description: 'Payments entering a status, by type (OUTGOING, INCOMING, ...) and status',
    }),
    ledgerPostings: m.createCounter('ledger.postings', { description: 'Ledger postings applied, by currency' }),
    ledgerSteps: m.createCounter('ledger.steps', { description: 'Ledger steps by result (APPLIED, REFUSED)' }),
    eventsPublished: m.createCounter('outbox.events.published', {
      description: 'Events published by the outbox relays, by topic',
    }),
    eventsDeadLettered: m.createCounter('events.dead_lettered', {
      description:
        'Events a consumer group gave up on after its attempts and dead-lettered, by topic, group and event type',
    }),
  };
}
type Instruments = ReturnType<typeof createInstruments>;

/** The instruments of the current meter provider (no-ops before startMetrics). */
export function instruments(): Instruments {
  cached ??= createInstruments();
  return cached;
}

/** Seconds since `started` (a process.hrtime.bigint()). */
export const secondsSince = (started: bigint): number => Number(process.hrtime.bigint() - started) / 1e9;

/** Whether metrics are recorded in this process (so callers can skip work such as timing). */
export const metricsEnabled = (): boolean => provider !== undefined;

/**
 * A gauge read at scrape time (outbox depth, oldest pending webhook, consumer lag). `read` may be
 * async; it runs only when Prometheus scrapes. Registered against the provider current when called,
 * so gauges are registered after startMetrics (services start after it).
 */
export function observeGauge(
  name: string,
  options: { description: string; unit?: string },
  read: (observe: (value: number, attributes?: Attributes) => void) => Promise<void> | void,
): () => void {
  if (!provider) return () => undefined;
  const gauge: ObservableGauge = meter().createObservableGauge(name, options);
  const callback = async (result: ObservableResult) => {
    try {
      await read((value, attributes) => result.observe(value, attributes));
    } catch {
      // An unreachable store or broker leaves the gauge out of this scrape; the health checks report the outage.
    }
  };
  gauge.addCallback(callback);
  return () => gauge.removeCallback(callback);
}

export type { Counter, Histogram };
