import {
  context,
  propagation,
  trace,
  type Attributes,
  type Context,
  type Span,
  SpanKind,
  SpanStatusCode,
} from '@opentelemetry/api';
import { randomBytes } from 'node:crypto';
import type { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';

// The two modules of @opentelemetry/core used at start, not its index: that loads the SDK's platform
// information and every semantic convention, a good part of each thread's start.
const { isTracingSuppressed, suppressTracing } = require(
  '@opentelemetry/core/build/src/trace/suppress-tracing',
) as typeof import('@opentelemetry/core');
const { W3CTraceContextPropagator } = require(
  '@opentelemetry/core/build/src/trace/W3CTraceContextPropagator',
) as typeof import('@opentelemetry/core');

/**
 * W3C trace context travels in HTTP headers, gRPC metadata and Kafka headers; spans are recorded
 * and exported only when the standard OTEL_* variables (or a test) ask for it.
 */
let provider: NodeTracerProvider | undefined;
let propagationReady = false;

/**
 * The context manager (AsyncLocalStorage, built on async hooks in Node 20) costs every promise
 * some time, so it is only installed when spans are exported; without it nothing is recorded.
 */
function ensurePropagation(withContextManager: boolean): void {
  if (!propagationReady) {
    propagationReady = true;
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  }
  if (!withContextManager) return;
  const { AsyncLocalStorageContextManager } = require(
    '@opentelemetry/context-async-hooks',
  ) as typeof import('@opentelemetry/context-async-hooks');
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
}

function exporterFromEnv(env: NodeJS.ProcessEnv): SpanExporter | undefined {
  const wanted = env.OTEL_TRACES_EXPORTER
    ?? (env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ? 'otlp' : 'none');
  if (wanted === 'none' || env.OTEL_SDK_DISABLED === 'true') return undefined;
  if (wanted === 'console') {
    const { ConsoleSpanExporter } = require(
      '@opentelemetry/sdk-trace-base',
    ) as typeof import('@opentelemetry/sdk-trace-base');
    return new ConsoleSpanExporter();
  }
  return otlpExporter(otlpProtocol(env));
}

export type OtlpProtocol = 'http/protobuf' | 'http/json' | 'grpc';

/**
 * OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, else OTEL_EXPORTER_OTLP_PROTOCOL, else the specification's default http/protobuf.
 */
export function otlpProtocol(env: NodeJS.ProcessEnv): OtlpProtocol {
  const name = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim() || env.OTEL_EXPORTER_OTLP_PROTOCOL?.trim()
    || 'http/protobuf';
  if (name !== 'http/protobuf' && name !== 'http/json' && name !== 'grpc') {
    throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf, http/json or grpc, got "${name}"`);
  }
  return name;
}

/** The OTLP exporter of a protocol; each reads its endpoint, headers and timeout from the standard OTEL_* variables. */
export function otlpExporter(protocol: OtlpProtocol): SpanExporter {
  if (protocol === 'grpc') {
    const { OTLPTraceExporter } = require(
      '@opentelemetry/exporter-trace-otlp-grpc',
    ) as typeof import('@opentelemetry/exporter-trace-otlp-grpc');
    return new OTLPTraceExporter();
  }
  if (protocol === 'http/json') {
    const { OTLPTraceExporter } = require(
      '@opentelemetry/exporter-trace-otlp-http',
    ) as typeof import('@opentelemetry/exporter-trace-otlp-http');
    return new OTLPTraceExporter();
  }
  const { OTLPTraceExporter } = require(
    '@opentelemetry/exporter-trace-otlp-proto',
  ) as typeof import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter();
}

export interface TelemetryOptions {
  serviceName: string;
  /** Tests pass an in-memory exporter; otherwise OTEL_* decides. */
  exporter?: SpanExporter;
  /** Track the active context even when nothing is exported (tests of context propagation). */
  trackContext?: boolean;
  env?: NodeJS.ProcessEnv;
}

/** Returns whether spans are exported. Safe to call more than once (first call wins). */
export function startTelemetry(options: TelemetryOptions): boolean {
  if (provider) return true;
  const env = options.env ?? process.env;
  const exporter = options.exporter ?? exporterFromEnv(env);
  ensurePropagation(exporter !== undefined || options.trackContext === true);
  if (!exporter) return false;
  // The SDK is loaded only when spans are exported (it is a good part of a start's module loading).
  const { NodeTracerProvider } = require(
    '@opentelemetry/sdk-trace-node',
  ) as typeof import('@opentelemetry/sdk-trace-node');
  const { BatchSpanProcessor, SimpleSpanProcessor } = require(
    '@opentelemetry/sdk-trace-base',
  ) as typeof import('@opentelemetry/sdk-trace-base');
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME ?? options.serviceName }),
    spanProcessors: [options.exporter ? new SimpleSpanProcessor(exporter) : new BatchSpanProcessor(exporter)],
  });
  trace.setGlobalTracerProvider(provider);
  return true;
}

export async function stopTelemetry(): Promise<void> {
  await provider?.shutdown();
  provider = undefined;
}

export const tracer = () => trace.getTracer('grid-payments');

export function injectTraceContext(
  carrier: Record<string, string>,
  ctx: Context = context.active(),
): Record<string, string> {
  if (isTracingSuppressed(ctx)) {
    // Untraced work (probes): the callee is told "not sampled", so it records nothing either.
    carrier.traceparent = `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-00`;
    return carrier;
  }
  propagation.inject(ctx, carrier);
  return carrier;
}

export function extractTraceContext(carrier: Record<string, string | undefined>): Context {
  return propagation.extract(context.active(), carrier);
}

/** Runs `fn` inside a span that ends with the promise, recording failures. */
export async function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; parent?: Context; attributes?: Attributes },
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = options.parent ?? context.active();
  const span = tracer().startSpan(name, { kind: options.kind, attributes: options.attributes }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (err) {
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw err;
  } finally {
    span.end();
  }
}

export { SpanKind };

/** Runs `fn` without recording spans, here or in the services it calls (health and readiness checks). */
export function untraced<T>(fn: () => T): T {
  return context.with(suppressTracing(context.active()), fn);
}
