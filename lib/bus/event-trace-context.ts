import { context, propagation, ROOT_CONTEXT } from '@opentelemetry/api';

/** The W3C traceparent of the active context; undefined without an active span or installed propagator. */
export function activeTraceparent(): string | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/**
 * Runs a handler in the trace context its event was published under, never in whatever context
 * happens to be active where delivery was scheduled, so both bus adapters behave alike.
 */
export function runInEventContext<T>(traceparent: string | undefined, fn: () => T): T {
  const ctx = traceparent ? propagation.extract(ROOT_CONTEXT, { traceparent }) : ROOT_CONTEXT;
  return context.with(ctx, fn);
}
