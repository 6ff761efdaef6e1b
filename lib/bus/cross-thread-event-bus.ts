import type { MessagePort } from 'node:worker_threads';
import { batcher } from '../grpc/port-transport';
import type { DomainEvent, EventBus, EventHandler, SubscribeOptions, Subscription } from './event-bus';
import { runInEventContext } from './event-trace-context';

/**
 * The embedded bus across the worker threads of one process. One in-process bus
 * (in-process-event-bus.ts) lives on the main thread, the hub; each service thread reaches it over
 * a MessagePort of its own through `connectEventBus`, with the EventBus contract unchanged:
 * publish resolves once every subscribed group handled the events, wherever its members run; a
 * member's handler runs on the thread that subscribed it, and its failure is the hub's failure, so
 * consumer groups, per-aggregate ordering, retries and the publisher keeping what was not handled
 * are the in-process bus's own. Dead letters stay with the subscriber (its handler is guarded there).
 */

type Request =
  | { publish: { topic: string; events: DomainEvent[] } }
  | { subscribe: { sub: number; topic: string; group: string; fromBeginning?: boolean; transient?: boolean } }
  | { unsubscribe: number }
  | { deliver: { sub: number; event: DomainEvent } };

type Message = { call: number; request: Request } | { answer: number; error?: string };

interface Rpc {
  request(request: Request): Promise<void>;
  /** Rejects what waits for an answer, and every later request; closes the port. */
  close(): void;
}

/**
 * Requests both ways over one port, batched per event-loop turn (one postMessage wakes the other
 * thread once for many events). An answer carries the error's message only: the hub logs it and the
 * publisher keeps the events, as with the in-process bus.
 */
function portRpc(port: MessagePort, serve: (request: Request) => Promise<void>, onClose: () => void): Rpc {
  const waiting = new Map<number, { resolve(): void; reject(err: Error): void }>();
  const send = batcher<Message>(port);
  let next = 0;
  let open = true;
  port.on('message', (messages: Message[]) => {
    for (const message of messages) {
      if ('call' in message) {
        serve(message.request).then(
          () => open && send({ answer: message.call }),
          (err: unknown) =>
            open && send({ answer: message.call, error: err instanceof Error ? err.message : String(err) }),
        );
        continue;
      }
      const call = waiting.get(message.answer);
      waiting.delete(message.answer);
      if (!waiting.size) port.unref();
      if (message.error === undefined) call?.resolve();
      else call?.reject(new Error(message.error));
    }
  });
  const close = () => {
    if (!open) return;
    open = false;
    for (const call of waiting.values()) call.reject(new Error("the event bus's thread is gone"));
    waiting.clear();
    port.close();
    onClose();
  };
  port.once('close', close);
  // A request waiting for its answer holds the thread (a thread that awaits its subscription would
  // otherwise end); an idle port holds nothing.
  port.unref();
  return {
    close,
    request(request) {
      if (!open) return Promise.reject(new Error('event bus is closed'));
      const call = next++;
      return new Promise((resolve, reject) => {
        if (!waiting.size) port.ref();
        waiting.set(call, { resolve, reject });
        send({ call, request });
      });
    },
  };
}

/**
 * The hub's end of one thread's port: its publishes go to `bus`, its subscriptions join `bus` with
 * a handler that runs on that thread. When the thread goes away its members leave their groups (a
 * delivery in flight to it fails, and is retried with another member or kept by the publisher).
 */
export function serveEventBus(port: MessagePort, bus: EventBus): { close(): void } {
  const subscriptions = new Map<number, Promise<Subscription>>();
  const leave = (sub: number) => {
    const subscription = subscriptions.get(sub);
    subscriptions.delete(sub);
    return subscription?.then((s) => s.close());
  };
  const rpc: Rpc = portRpc(port, async (request) => {
    if ('publish' in request) return bus.publish(request.publish.topic, request.publish.events);
    if ('subscribe' in request) {
      const { sub, ...options } = request.subscribe;
      const subscribed = bus.subscribe({ ...options, handler: (event) => rpc.request({ deliver: { sub, event } }) });
      subscriptions.set(sub, subscribed);
      await subscribed;
      return;
    }
    if ('unsubscribe' in request) return leave(request.unsubscribe);
    throw new Error('the hub delivers events, it takes none');
  }, () => {
    for (const sub of [...subscriptions.keys()]) void leave(sub)?.catch(() => undefined);
  });
  return { close: () => rpc.close() };
}

/** A thread's event bus: the hub on the main thread, over `port` (see serveEventBus). */
export function connectEventBus(port: MessagePort): EventBus {
  const handlers = new Map<number, EventHandler>();
  let nextSub = 0;
  const rpc = portRpc(port, async (request) => {
    if (!('deliver' in request)) throw new Error('a thread takes deliveries only');
    const handler = handlers.get(request.deliver.sub);
    if (!handler) throw new Error('the subscription was closed');
    const { event } = request.deliver;
    await runInEventContext(event.traceparent, () => handler(event));
  }, () => undefined);
  const unsubscribe = async (sub: number) => {
    if (!handlers.has(sub)) return;
    // The hub answers once the member's deliveries in flight ended: the handler stays until then.
    await rpc.request({ unsubscribe: sub }).catch(() => undefined);
    handlers.delete(sub);
  };
  return {
    publish: (topic, events) => rpc.request({ publish: { topic, events } }),
    async subscribe({ handler, topic, group, fromBeginning, transient }: SubscribeOptions): Promise<Subscription> {
      const sub = nextSub++;
      handlers.set(sub, handler);
      try {
        await rpc.request({ subscribe: { sub, topic, group, fromBeginning, transient } });
      } catch (err) {
        handlers.delete(sub);
        throw err;
      }
      return { close: () => unsubscribe(sub) };
    },
    async close() {
      await Promise.all([...handlers.keys()].map(unsubscribe));
      rpc.close();
    },
  };
}
