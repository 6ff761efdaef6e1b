/**
 * The event port. Events are past tense and versioned (`customer.created` v1); `id` is unique
 * so that consumers de-duplicate (at-least-once delivery). Two adapters: Kafka (kafkajs) and
 * an in-process bus for the embedded default and tests.
 */
export interface DomainEvent<T = Record<string, unknown>> {
  id: string; // Event:<uuid>
  type: string; // e.g. "CUSTOMER.CREATED" — the webhook kind where one exists
  version: number;
  occurredAt: string; // ISO 8601
  platformId: string;
  aggregateId: string; // record the event is about; also the Kafka message key (ordering)
  data: T;
  /** W3C trace context of the request that caused the event, carried in Kafka headers. */
  traceparent?: string;
}

export type EventHandler = (event: DomainEvent) => Promise<void>;

export interface Subscription {
  /** False while the subscription cannot receive (a crashed or stalled consumer); absent = always running. */
  isRunning?(): boolean;
  close(): Promise<void>;
}

export interface SubscribeOptions {
  topic: string;
  group: string;
  handler: EventHandler;
  fromBeginning?: boolean;
  /** The group belongs to this replica alone (replicaGroup): closing the subscription deletes it from the broker. */
  transient?: boolean;
}

export interface EventBus {
  publish(topic: string, events: DomainEvent[]): Promise<void>;
  /**
   * Consumer-group semantics: each event reaches one member of `group`; failed handlers are retried.
   * Resolves without waiting for the group join (Kafka): a new group starts from the beginning with
   * `fromBeginning`, otherwise from the end as of its join.
   */
  subscribe(options: SubscribeOptions): Promise<Subscription>;
  close(): Promise<void>;
}
