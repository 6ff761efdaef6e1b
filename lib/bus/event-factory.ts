import { newId } from '../ids';
import { jsonCopy } from '../json-copy';
import type { DomainEvent } from './event-bus';
import { activeTraceparent } from './event-trace-context';

/** What an event says: its type and schema version, the platform and aggregate it is about, and its data. */
export interface EventContent<T extends Record<string, unknown>> {
  type: string;
  version: number;
  platformId: string;
  aggregateId: string;
  data: T;
}

export type NewEvent = <T extends Record<string, unknown>>(content: EventContent<T>) => DomainEvent<T>;

/**
 * Builds events with a fresh `Event:<uuid>` id, the time, and the traceparent of the active span; `data` is plain JSON.
 */
export function createEventFactory(options: { clock?: () => Date } = {}): NewEvent {
  const clock = options.clock ?? (() => new Date());
  return ({ type, version, platformId, aggregateId, data }) => {
    const traceparent = activeTraceparent();
    return {
      id: newId('Event'),
      type,
      version,
      occurredAt: clock().toISOString(),
      platformId,
      aggregateId,
      // As JSON carries it: an undefined member is left out here, or the outbox's store would keep it as null.
      data: jsonCopy(data),
      ...(traceparent ? { traceparent } : {}),
    };
  };
}

export const newEvent: NewEvent = createEventFactory();
