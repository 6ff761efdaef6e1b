/**
 * The capacity model of docs/capacity.md: what a deployment on MongoDB and Kafka needs at a given
 * payment rate, computed from the figures `npm run bench -- writes` measured (saved in
 * docs/capacity-inputs.json) and from the assumptions below, each labelled. Pure: no I/O, so the
 * docs' tables (bench/capacity-tables.ts) are checked against it (test/docs/capacity-model.test.ts).
 */

/** What `npm run bench -- writes` reports for the components as separate processes (bench/service-processes.ts). */
export interface ServiceProcessFigures {
  clients: number;
  payments: number;
  cpuMsPerPayment: Record<string, number>;
  cpuMsPerPaymentTotal: number;
  idleCpuMsPerSecond: Record<string, number>;
  storeOperationsPerPayment: Record<string, Record<string, number>>;
  storeWritesPerPayment: Record<string, number>;
  eventsPerPayment: Record<string, number>;
  webhookDeliveriesPerPayment: Record<string, number>;
  webhooksReceivedPerPayment: number;
  /** The components with a consumer group on each topic. */
  consumers?: Record<string, string[]>;
  wallMs: number;
  perSecond: number;
}

export interface CapacityInputs {
  /** The one command that measured these figures. */
  command: string;
  measuredAt: string;
  machine: {
    description: string;
    cpus: number;
    cpuModel: string;
    node: string;
    uptimeBefore: string;
    uptimeAfter: string;
  };
  /** `npm run bench -- writes`, its `paymentWrites` object as printed. */
  paymentWrites: {
    writesPerPayment?: number;
    perCollection?: Record<string, number>;
    eventsPerPayment?: Record<string, number>;
    cpuMsPerCreateExecute?: number;
    serviceProcesses: ServiceProcessFigures;
  };
}

/** Every figure the model assumes rather than measures. Change one, then `npm run capacity -- --update-docs`. */
export const ASSUMPTIONS = {
  /** Payments per second the model sizes for. */
  rates: [1_000, 10_000],
  /** A replica is one Node.js process: its JavaScript runs on one thread, so it gets at most one core's work done. */
  coresPerReplica: 1,
  /** The share of that core a replica is planned at, leaving headroom for bursts, GC and a lost replica's share. */
  replicaUtilisation: 0.6,
  /** Replicas of each component at least, so that one can fail or roll without an outage. */
  minReplicas: 2,
  /**
   * Write operations a second one MongoDB primary is planned at (w: majority, journaled, a few
   * secondary indexes per collection, documents of a few KB). Not measured here: MongoDB cannot run
   * on these machines. Measure it on the target hardware and put the figure here.
   */
  primaryWritesPerSecond: 5_000,
  /**
   * Events a second one partition is planned at: one consumer of each group handles a partition's
   * events in order, and each handler does store work (webhook records, inbox de-duplication).
   */
  partitionEventsPerSecond: 1_000,
  /** A topic's partitions at least: consumer replicas beyond the partition count sit idle. */
  minPartitions: 6,
};
export type Assumptions = typeof ASSUMPTIONS;

const WRITE_OPERATIONS = new Set([
  'insertOne',
  'updateOne',
  'updateMany',
  'findOneAndUpdate',
  'deleteOne',
  'deleteMany',
]);
/** Where the figures sit in the inputs (docs/capacity-inputs.json). */
export const SOURCE = 'paymentWrites.serviceProcesses';
const isWrite = (key: string) => WRITE_OPERATIONS.has(key.split(' ')[1]);
const isRead = (key: string) => !isWrite(key) && key.split(' ')[1] !== 'createIndex';
const sumOf = (operations: Record<string, number>, keep: (key: string) => boolean) =>
  Object.entries(operations).filter(([key]) => keep(key)).reduce((total, [, n]) => total + n, 0);
const byName = <T>(record: Record<string, T>) => Object.entries(record).sort(([x], [y]) => x.localeCompare(y));

/**
 * Shard keys for the collections a payment writes, from how the repositories address their
 * documents (services/<name>/store). MongoDB requires every unique index of a sharded collection
 * to start with the shard key, and routes a write to one shard only when its filter carries the key.
 * A collection not listed gets hashed `_id`, flagged for review.
 */
export const SHARD_KEYS: Record<string, { key: string; why: string }> = {
  payments: {
    key: '{ platformId: 1 }',
    why: 'its unique indexes (platformId + quote.id, platformId + idempotency.key) must start with the shard key, '
      + 'and every read and update of a payment carries the platform: platforms spread over shards, but one '
      + "platform's payments stay on one shard. The outbox relay's removal of published events (`updateMany` "
      + 'by `_id`) goes to every shard',
  },
  ledger_balances: {
    key: '{ _id: "hashed" }',
    why: "every update is by `_id` (an internal account, an account's shard `account#n`, or one of the "
      + "platform's 16 system documents `ledger-system:<platform>#n`)",
  },
  daily_volumes: {
    key: '{ _id: "hashed" }',
    why: 'updated by `_id` (platform/currency/receiving currency/day); each counter is one document, which '
      + 'sharding does not split',
  },
  daily_volume_reservations: { key: '{ _id: "hashed" }', why: 'written and read by `_id` (counter|payment)' },
  webhook_deliveries: {
    key: '{ _id: "hashed" }',
    why: "recorded and updated by `_id`; the worker's claim (by status and due time) carries no shard key, "
      + 'which MongoDB 7.0 and later run as a query to every shard, then one write',
  },
  ledger_posting_archive: {
    key: '{ _id: "hashed" }',
    why: "written by `_id` (an upsert, which must carry the shard key); read by balance only when a step's "
      + 'outcome is uncertain, then from every shard',
  },
  _leases: { key: 'none (unsharded)', why: 'a handful of documents, renewed every few seconds, not per payment' },
};

/** Figures per rate are arrays in the order of the assumed rates. */
export interface ServiceRow {
  component: string;
  cpuMs: number;
  source: string;
  cores: number[];
  replicas: number[];
}
export interface TopicRow {
  topic: string;
  perPayment: number;
  source: string;
  consumers: string[];
  perSecond: number[];
  partitions: number[];
}
export interface DatabaseRow {
  service: string;
  writesPerPayment: number;
  readsPerPayment: number;
  source: string;
  writesPerSecond: number[];
  readsPerSecond: number[];
  primaries: number[];
}
export interface CollectionRow {
  service: string;
  collection: string;
  writesPerPayment: number;
  writesPerSecond: number[];
  key: string;
  why: string;
}

export interface CapacityModel {
  rates: number[];
  services: ServiceRow[];
  topics: TopicRow[];
  databases: DatabaseRow[];
  /** Collections of the databases that need more than one primary at some rate, by writes. */
  shardKeys: CollectionRow[];
  webhooksPerPayment: number;
  /** Writes per payment to the `payments` collection, whose shard key keeps one platform on one shard. */
  paymentsCollectionWritesPerPayment: number;
}

const round = (n: number, digits = 2) => Number(n.toFixed(digits));

export function replicasFor(cores: number, a: Assumptions = ASSUMPTIONS): number {
  return Math.max(a.minReplicas, Math.ceil(cores / (a.coresPerReplica * a.replicaUtilisation)));
}

/** Partitions of a topic: enough for its event rate, and one for each replica of its largest consumer. */
export function partitionsFor(eventsPerSecond: number, consumerReplicas: number, a: Assumptions = ASSUMPTIONS): number {
  return Math.max(a.minPartitions, consumerReplicas, Math.ceil(eventsPerSecond / a.partitionEventsPerSecond));
}

export function primariesFor(writesPerSecond: number, a: Assumptions = ASSUMPTIONS): number {
  return Math.max(1, Math.ceil(writesPerSecond / a.primaryWritesPerSecond));
}

export function capacityModel(inputs: CapacityInputs, a: Assumptions = ASSUMPTIONS): CapacityModel {
  const figures = inputs.paymentWrites.serviceProcesses;
  const rates = a.rates;
  const perSecond = (perPayment: number) => rates.map((rate) => Math.round(rate * perPayment));
  const services = byName(figures.cpuMsPerPayment).map(([component, cpuMs]) => {
    const cores = rates.map((rate) => round((rate * cpuMs) / 1000, 1));
    const source = `${SOURCE}.cpuMsPerPayment["${component}"]`;
    return { component, cpuMs, source, cores, replicas: cores.map((c) => replicasFor(c, a)) };
  });
  // Inputs that do not name the consumers: every component counts as one.
  const consumersOf = (topic: string) => figures.consumers?.[topic] ?? services.map((s) => s.component);
  const replicasOf = (names: string[], i: number) =>
    Math.max(0, ...services.filter((s) => names.includes(s.component)).map((s) => s.replicas[i]));
  const topics = byName(figures.eventsPerPayment).map(([topic, perPayment]) => {
    const events = perSecond(perPayment);
    const consumers = consumersOf(topic);
    return {
      topic,
      perPayment,
      source: `${SOURCE}.eventsPerPayment["${topic}"]`,
      consumers,
      perSecond: events,
      partitions: events.map((n, i) => partitionsFor(n, replicasOf(consumers, i), a)),
    };
  });
  const databases = byName(figures.storeOperationsPerPayment).map(([service, operations]) => {
    const writes = sumOf(operations, isWrite);
    const writesPerSecond = perSecond(writes);
    return {
      service,
      writesPerPayment: round(writes),
      readsPerPayment: round(sumOf(operations, isRead)),
      source: `${SOURCE}.storeOperationsPerPayment["${service}"]`,
      writesPerSecond,
      readsPerSecond: perSecond(sumOf(operations, isRead)),
      primaries: writesPerSecond.map((n) => primariesFor(n, a)),
    };
  });
  const shardKeys = databases.filter((d) => d.primaries.some((p) => p > 1))
    .flatMap((d) => collectionsOf(d.service, figures.storeOperationsPerPayment[d.service], perSecond));
  const payments = figures.storeOperationsPerPayment['quotes-transactions'] ?? {};
  return {
    rates,
    services,
    topics,
    databases,
    shardKeys,
    webhooksPerPayment: round(Object.values(figures.webhookDeliveriesPerPayment).reduce((t, n) => t + n, 0)),
    paymentsCollectionWritesPerPayment: round(sumOf(payments, (key) => key.startsWith('payments ') && isWrite(key))),
  };
}

/** A database's collections by writes per payment, the busiest first, each with its shard key. */
type Rates = (perPayment: number) => number[];

function collectionsOf(service: string, operations: Record<string, number>, perSecond: Rates): CollectionRow[] {
  const byCollection = new Map<string, number>();
  for (const [key, n] of Object.entries(operations)) {
    const collection = key.split(' ')[0];
    if (isWrite(key)) byCollection.set(collection, (byCollection.get(collection) ?? 0) + n);
  }
  const unknown = { key: '{ _id: "hashed" }', why: 'no key chosen for this collection yet: review its queries first' };
  return [...byCollection].sort(([x, m], [y, n]) => n - m || x.localeCompare(y)).map(([collection, writes]) => ({
    service,
    collection,
    writesPerPayment: round(writes),
    writesPerSecond: perSecond(writes),
    ...(SHARD_KEYS[collection] ?? unknown),
  }));
}
