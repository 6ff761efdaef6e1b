import { context, isSpanContextValid, trace, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../../lib/log';
import { extractTraceContext, tracer, untraced } from '../../lib/telemetry';
import { instruments, metricsEnabled, secondsSince } from '../../lib/metrics';
import { findOperation } from '../contract/operation-registry';

/** Health and readiness probes: asked every few seconds by the orchestrator, never traced or logged. */
const PROBES = new Set(['/healthz', '/livez', '/readyz']);

/**
 * One span per REST request (parent of every gRPC call it makes), one access-log line carrying
 * the trace id, and with metrics on, its duration by operation id (bounded, unlike raw paths).
 */
export function requestTracing(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (PROBES.has(req.path)) return void untraced(next);
    const started = process.hrtime.bigint();
    const parent = extractTraceContext(req.headers as Record<string, string>);
    const span = tracer().startSpan(`HTTP ${req.method}`, {
      kind: SpanKind.SERVER,
      attributes: { 'http.method': req.method },
    }, parent);
    res.on('finish', () => {
      const route = (req.route?.path as string | undefined) ?? 'unmatched';
      span.updateName(`${req.method} ${route}`);
      span.setAttribute('http.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      const spanContext = span.spanContext();
      logger.info('request', {
        method: req.method,
        route,
        status: res.statusCode,
        correlationId: res.locals.correlationId,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
        ...(isSpanContextValid(spanContext) ? { traceId: spanContext.traceId } : {}),
      });
      if (metricsEnabled()) {
        // Found once by request validation; requests refused before it (401, 429) are looked up here.
        const operation = (res.locals.operationId as string | undefined)
          ?? findOperation(req.method, req.originalUrl.split('?')[0])?.operationId ?? 'unmatched';
        instruments().httpRequests.record(secondsSince(started), {
          operation,
          'http.request.method': req.method,
          'http.response.status_code': res.statusCode,
        });
      }
    });
    context.with(trace.setSpan(parent, span), next);
  };
}
