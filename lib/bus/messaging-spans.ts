import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { tracer } from '../telemetry';
import type { DomainEvent } from './event-bus';

/**
 * Spans of a Kafka hop, named and described by OpenTelemetry's messaging conventions: a PRODUCER
 * span `send <topic>` per event, child of the trace the event was raised in, whose context travels
 * in the message's `traceparent` header; a CONSUMER span `process <topic>` per delivery, child of
 * that producer span, in which the handler runs.
 */
const SYSTEM = { 'messaging.system': 'kafka' } as const;

export interface ProducerSpans {
  /** The traceparent header of event i (the producer span's context), or undefined without a trace. */
  traceparentOf(index: number): string | undefined;
  end(error?: unknown): void;
}

export function startProducerSpans(topic: string, events: DomainEvent[]): ProducerSpans {
  const spans: Span[] = events.map((event) => {
    const parent = event.traceparent
      ? propagation.extract(ROOT_CONTEXT, { traceparent: event.traceparent })
      : ROOT_CONTEXT;
    return tracer().startSpan(`send ${topic}`, {
      kind: SpanKind.PRODUCER,
      attributes: {
        ...SYSTEM,
        'messaging.operation.type': 'send',
        'messaging.operation.name': 'send',
        'messaging.destination.name': topic,
        'messaging.message.id': event.id,
        'messaging.kafka.message.key': event.aggregateId,
        'messaging.batch.message_count': events.length,
      },
    }, parent);
  });
  return {
    traceparentOf(index) {
      const carrier: Record<string, string> = {};
      propagation.inject(trace.setSpan(ROOT_CONTEXT, spans[index]), carrier);
      return carrier.traceparent ?? events[index].traceparent;
    },
    end(error) {
      for (const span of spans) {
        if (error) {
          span.recordException(error instanceof Error ? error : String(error));
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
        span.end();
      }
    },
  };
}

export interface Delivery {
  topic: string;
  group: string;
  partition: number;
  offset: string;
  /** The message's traceparent header. */
  traceparent?: string;
  event?: DomainEvent;
}

/** Runs `fn` in a CONSUMER span for one delivered message; the span ends with it. */
export async function inConsumerSpan<T>(delivery: Delivery, fn: () => Promise<T>): Promise<T> {
  const parent = delivery.traceparent
    ? propagation.extract(ROOT_CONTEXT, { traceparent: delivery.traceparent })
    : ROOT_CONTEXT;
  const span = tracer().startSpan(`process ${delivery.topic}`, {
    kind: SpanKind.CONSUMER,
    attributes: {
      ...SYSTEM,
      'messaging.operation.type': 'process',
      'messaging.operation.name': 'process',
      'messaging.destination.name': delivery.topic,
      'messaging.consumer.group.name': delivery.group,
      'messaging.destination.partition.id': String(delivery.partition),
      'messaging.kafka.offset': Number(delivery.offset),
      ...(delivery.event
        ? { 'messaging.message.id': delivery.event.id, 'messaging.kafka.message.key': delivery.event.aggregateId }
        : {}),
    },
  }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), fn);
  } catch (err) {
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw err;
  } finally {
    span.end();
  }
}
