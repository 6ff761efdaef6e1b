import type { EventHandler } from './event-bus';
import { DuplicateKeyError, type Doc, type DocumentCollection } from '../store/document-store';

export interface IdempotentHandlerOptions {
  /** Holds one `{_id: "<group>:<event id>"}` document per event already applied. */
  collection: DocumentCollection;
  group: string;
  handler: EventHandler;
}

/** Wraps a consumer's handler so an event delivered again (at-least-once) is applied once. */
export function createIdempotentHandler({ collection, group, handler }: IdempotentHandlerOptions): EventHandler {
  return async (event) => {
    const _id = `${group}:${event.id}`;
    if (await collection.findOne({ _id })) return;
    await handler(event);
    // Recorded after success: a crash in between means a redelivery runs the handler again (so handlers must be
    // idempotent), never that a failed event is marked done.
    const receipt: Doc = {
      _id,
      group,
      eventId: event.id,
      eventType: event.type,
      processedAt: new Date().toISOString(),
    };
    try {
      await collection.insertOne(receipt);
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err; // a concurrent redelivery recorded it first
    }
  };
}
