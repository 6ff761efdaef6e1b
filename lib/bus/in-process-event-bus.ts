import { createLogger, type Logger } from '../log';
import type { DomainEvent, EventBus, EventHandler, Subscription } from './event-bus';
import { runInEventContext } from './event-trace-context';
import { backoffDelay, type RetryBackoff } from './retry-backoff';

export interface InProcessEventBusOptions {
  logger?: Logger;
  /** A failing handler gets `attempts` tries in all (default 5), then the event is logged and skipped. */
  retry?: RetryBackoff & { attempts?: number };
  /** Recent events kept per topic for groups that subscribe for the first time with fromBeginning. */
  retain?: number;
}

interface Member {
  handler: EventHandler;
  inFlight: Set<Promise<void>>;
}

interface Group {
  members: Member[];
  turn: number;
  /** Per aggregateId, the tail of its delivery chain: events of one aggregate run one after another. */
  chains: Map<string, Promise<void>>;
  /** Deliveries waiting for a member while the group has none. */
  waiting: Array<(member: Member | undefined) => void>;
}

interface Topic {
  recent: string[];
  groups: Map<string, Group>;
}

/**
 * The event bus of the embedded mode: Kafka's consumer-group semantics inside one process.
 * Events are serialised at publish time so handlers see the same JSON shape as over Kafka, and
 * publish() answers only once the subscribed groups handled them (see publish). close() drains
 * queued deliveries, retries included.
 */
export function createInProcessEventBus(options: InProcessEventBusOptions = {}): EventBus {
  const logger = options.logger ?? createLogger();
  const attempts = Math.max(1, options.retry?.attempts ?? 5);
  const backoff = { initialMs: options.retry?.initialMs ?? 100, maxMs: options.retry?.maxMs ?? 2_000 };
  const retain = options.retain ?? 1_000;
  const topics = new Map<string, Topic>();
  const pending = new Set<Promise<void>>();
  /** Per `topic/group`: events left queued for a group with no subscriber when the bus closed. */
  const undelivered = new Map<string, { topic: string; group: string; count: number }>();
  let closed = false;

  const topicState = (name: string): Topic => {
    let topic = topics.get(name);
    if (!topic) topics.set(name, topic = { recent: [], groups: new Map() });
    return topic;
  };

  const nextMember = (group: Group): Promise<Member | undefined> => {
    if (group.members.length) return Promise.resolve(group.members[group.turn++ % group.members.length]);
    if (closed) return Promise.resolve(undefined);
    return new Promise((resolve) => group.waiting.push(resolve));
  };

  /** Resolves once a member handled the event; rejects when every attempt failed or the bus closed first. */
  const deliver = async (topic: string, groupName: string, group: Group, json: string): Promise<void> => {
    for (let attempt = 1;; attempt++) {
      const member = await nextMember(group);
      const event = JSON.parse(json) as DomainEvent;
      const fields = { topic, group: groupName, eventId: event.id, eventType: event.type, attempt };
      if (!member) {
        logger.debug('event not delivered: its group has no subscriber left and the bus closed', fields);
        const tally = undelivered.get(`${topic}/${groupName}`) ?? { topic, group: groupName, count: 0 };
        undelivered.set(`${topic}/${groupName}`, { ...tally, count: tally.count + 1 });
        throw new Error(`event ${event.id} not delivered to ${groupName}: the bus closed`);
      }
      const call = runInEventContext(event.traceparent, async () => member.handler(event));
      member.inFlight.add(call);
      try {
        await call;
        return;
      } catch (err) {
        if (attempt >= attempts) {
          logger.error('event handler failed; the publisher keeps the event to publish it again', { ...fields, err });
          throw err;
        }
        logger.warn('event handler failed; retrying', { ...fields, err });
      } finally {
        member.inFlight.delete(call);
      }
      await sleep(backoffDelay(attempt, backoff));
    }
  };

  const enqueue = (topic: string, groupName: string, group: Group, json: string): Promise<void> => {
    const key = (JSON.parse(json) as DomainEvent).aggregateId;
    const previous = group.chains.get(key) ?? Promise.resolve();
    // setImmediate: handlers never run inside publish()'s own turn, as with a real broker.
    // An earlier event of the aggregate that failed does not hold back the next one.
    const run = previous.catch(() => undefined).then(nextTurn).then(() => deliver(topic, groupName, group, json));
    group.chains.set(key, run);
    pending.add(run);
    void run.catch(() => undefined).finally(() => {
      pending.delete(run);
      if (group.chains.get(key) === run) group.chains.delete(key);
    });
    return run;
  };

  return {
    // Resolves once every group has handled every event, so a publisher that removes events after
    // publishing them (the outbox relay) never drops one that a crash would have lost in memory.
    async publish(topic, events) {
      if (closed) throw new Error('event bus is closed');
      const state = topicState(topic);
      // The bus keeps nothing across a restart: a group that lost its members cannot take events now.
      const orphaned = [...state.groups].filter(([, group]) => !group.members.length).map(([name]) => name);
      if (orphaned.length) {
        throw new Error(`no subscriber in ${orphaned.join(', ')} for ${topic}: the events stay with the publisher`);
      }
      const handled: Promise<void>[] = [];
      for (const event of events) {
        const json = JSON.stringify(event);
        state.recent.push(json);
        for (const [name, group] of state.groups) handled.push(enqueue(topic, name, group, json));
      }
      if (state.recent.length > retain) state.recent.splice(0, state.recent.length - retain);
      await Promise.all(handled);
    },

    async subscribe({ topic, group: groupName, handler, fromBeginning }): Promise<Subscription> {
      if (closed) throw new Error('event bus is closed');
      const state = topicState(topic);
      let group = state.groups.get(groupName);
      const isNewGroup = !group;
      if (!group) {
        group = { members: [], turn: 0, chains: new Map(), waiting: [] };
        state.groups.set(groupName, group);
      }
      const member: Member = { handler, inFlight: new Set() };
      group.members.push(member);
      for (const wake of group.waiting.splice(0)) wake(group.members[group.turn++ % group.members.length]);
      if (isNewGroup && fromBeginning) for (const json of state.recent) enqueue(topic, groupName, group, json);
      const joined = group;
      return {
        async close() {
          const index = joined.members.indexOf(member);
          if (index >= 0) joined.members.splice(index, 1);
          await Promise.allSettled([...member.inFlight]);
        },
      };
    },

    async close() {
      closed = true;
      for (const topic of topics.values()) {
        for (const group of topic.groups.values()) for (const wake of group.waiting.splice(0)) wake(undefined);
      }
      while (pending.size) await Promise.allSettled([...pending]);
      // One line per group, not per event: a busy process can stop with thousands queued.
      for (const tally of undelivered.values()) {
        logger.error('events not delivered: their group had no subscriber left when the bus closed', tally);
      }
      undelivered.clear();
    },
  };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
