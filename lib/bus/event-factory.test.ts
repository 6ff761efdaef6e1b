import { context, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { isId } from '../ids';
import { startTelemetry } from '../telemetry';
import { createEventFactory } from './event-factory';

describe('createEventFactory', () => {
  const newEvent = createEventFactory({ clock: () => new Date('2025-01-02T03:04:05.000Z') });

  it('builds a versioned event with an Event id and the time', () => {
    const e = newEvent({
      type: 'CUSTOMER.CREATED',
      version: 1,
      platformId: 'Platform:p',
      aggregateId: 'Customer:c',
      data: { name: 'n' },
    });
    expect(isId('Event', e.id)).toBe(true);
    expect(e).toEqual({
      id: e.id,
      type: 'CUSTOMER.CREATED',
      version: 1,
      occurredAt: '2025-01-02T03:04:05.000Z',
      platformId: 'Platform:p',
      aggregateId: 'Customer:c',
      data: { name: 'n' },
    });
  });

  it('captures the traceparent of the active span', () => {
    startTelemetry({ serviceName: 'event-factory-test', env: {}, trackContext: true });
    const span = trace.wrapSpanContext({
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      traceFlags: TraceFlags.SAMPLED,
    });
    const e = context.with(trace.setSpan(ROOT_CONTEXT, span), () =>
      newEvent({
        type: 'X.HAPPENED',
        version: 1,
        platformId: 'Platform:p',
        aggregateId: 'A:a',
        data: {},
      }));
    expect(e.traceparent).toBe('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
  });
});
