/**
 * The capacity model of docs/capacity.md: what a deployment on MongoDB and Kafka needs at a given
 * payment rate, computed from the figures `npm run bench -- writes` measured (saved in
 * docs/capacity-inputs.json) and from the assumptions below, each labelled. Pure: no I/O, so the
 * docs' tables are checked against it (test/docs/capacity-model.test.ts).
 */

/** What `npm run bench -- writes` reports for the gateway and the services as separate processes (bench/service-processes.ts). */
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
  machine: { description: string; cpus: number; cpuModel: string; node: string; uptimeBefore: string; uptimeAfter: string };
  /** `npm run bench -- writes`, its `paymentWrites` object as printed. */
  paymentWrites: {
    writesPerPayment?: number;
    perCollection?: Record<string, number>;
    eventsPerPayment?: Record<string, number>;
    cpuMsPerCreateExecute?: number;
    serviceProcesses: ServiceProcessFigures;
  };
}

/** Every figure the model assumes rather than measures. Change one here and rerun `npm run capacity -- --update-docs`. */
export const ASSUMPTIONS = {
  /** Payments per second the model sizes for. */
  rates: [1_000, 10_000],
  /** A replica is one Node.js process: its JavaScript runs on one thread, so it gets at most one core of work done. */
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

const WRITE_OPERATIONS = new Set(['insertOne', 'updateOne', 'updateMany', 'findOneAndUpdate', 'deleteOne', 'deleteMany']);
const SOURCE = 'paymentWrites.serviceProcesses';

/**
 * Shard keys for the collections a payment writes, from how the repositories address their
 * documents (services/<name>/store). MongoDB requires every unique index of a sharded collection
 * to start with the shard key, and routes a write to one shard only when its filter carries the key.
 * A collection not listed gets hashed `_id`, flagged for review.
 */
export const SHARD_KEYS: Record<string, { key: string; why: string }> = {
  payments: {
    key: '{ platformId: 1 }',
    why: 'its unique indexes (platformId + quote.id, platformId + idempotency.key) must start with the shard key, and every read and '
      + 'update of a payment carries the platform: platforms spread over shards, but one platform\'s payments stay on one shard. '
      + 'The outbox relay\'s removal of published events (`updateMany` by `_id`) goes to every shard',
  },
  ledger_balances: {
    key: '{ _id: "hashed" }',
    why: 'every update is by `_id` (an internal account, an account\'s shard `account#n`, or one of the platform\'s 16 system documents `ledger-system:<platform>#n`)',
  },
  daily_volumes: {
    key: '{ _id: "hashed" }',
    why: 'updated by `_id` (platform/currency/receiving currency/day); each counter is one document, which sharding does not split',
  },
  daily_volume_reservations: { key: '{ _id: "hashed" }', why: 'written and read by `_id` (counter|payment)' },
  webhook_deliveries: {
    key: '{ _id: "hashed" }',
    why: 'recorded and updated by `_id`; the worker\'s claim (by status and due time) carries no shard key, which MongoDB 7.0 and later run as a query to every shard, then one write',
  },
  ledger_posting_archive: {
    key: '{ _id: "hashed" }',
    why: 'written by `_id` (an upsert, which must carry the shard key); read by balance only when a step\'s outcome is uncertain, then from every shard',
  },
  _leases: { key: 'none (unsharded)', why: 'a handful of documents, renewed every few seconds, not per payment' },
};

export interface ServiceRow { component: string; cpuMs: number; source: string; cores: number[]; replicas: number[] }
export interface TopicRow { topic: string; perPayment: number; source: string; consumers: string[]; perSecond: number[]; partitions: number[] }
export interface DatabaseRow { service: string; writesPerPayment: number; readsPerPayment: number; source: string; writesPerSecond: number[]; readsPerSecond: number[]; primaries: number[] }
export interface CollectionRow { service: string; collection: string; writesPerPayment: number; writesPerSecond: number[]; key: string; why: string }

export interface CapacityModel {
  rates: number[];
  services: ServiceRow[];
  topics: TopicRow[];
  databases: DatabaseRow[];
  /** Collections of the databases that need more than one primary at some rate, by writes. */
  shardKeys: CollectionRow[];
  webhooksPerPayment: number;
  /** Writes per payment to the `payments` collection (quotes-transactions), whose shard key keeps one platform on one shard. */
  paymentsCollectionWritesPerPayment: number;
}

const round = (n: number, digits = 2) => Number(n.toFixed(digits));

export function replicasFor(cores: number, a: Assumptions = ASSUMPTIONS): number {
  return Math.max(a.minReplicas, Math.ceil(cores / (a.coresPerReplica * a.replicaUtilisation)));
}

/** Partitions of a topic: enough for its event rate, and one for each replica of its largest consuming component. */
export function partitionsFor(eventsPerSecond: number, consumerReplicas: number, a: Assumptions = ASSUMPTIONS): number {
  return Math.max(a.minPartitions, consumerReplicas, Math.ceil(eventsPerSecond / a.partitionEventsPerSecond));
}

export const primariesFor = (writesPerSecond: number, a: Assumptions = ASSUMPTIONS): number => Math.max(1, Math.ceil(writesPerSecond / a.primaryWritesPerSecond));

export function capacityModel(inputs: CapacityInputs, a: Assumptions = ASSUMPTIONS): CapacityModel {
  const figures = inputs.paymentWrites.serviceProcesses;
  const rates = a.rates;
  const services = Object.entries(figures.cpuMsPerPayment).sort(([x], [y]) => x.localeCompare(y)).map(([component, cpuMs]) => {
    const cores = rates.map((rate) => round((rate * cpuMs) / 1000, 1));
    return { component, cpuMs, source: `${SOURCE}.cpuMsPerPayment["${component}"]`, cores, replicas: cores.map((c) => replicasFor(c, a)) };
  });
  // Unknown consumers (inputs without them): every component counts as one.
  const consumersOf = (topic: string) => figures.consumers?.[topic] ?? services.map((s) => s.component);
  const replicasOf = (names: string[], i: number) => Math.max(0, ...services.filter((s) => names.includes(s.component)).map((s) => s.replicas[i]));
  const topics = Object.entries(figures.eventsPerPayment).sort(([x], [y]) => x.localeCompare(y)).map(([topic, perPayment]) => {
    const perSecond = rates.map((rate) => Math.round(rate * perPayment));
    const consumers = consumersOf(topic);
    return {
      topic, perPayment, source: `${SOURCE}.eventsPerPayment["${topic}"]`, consumers, perSecond,
      partitions: perSecond.map((n, i) => partitionsFor(n, replicasOf(consumers, i), a)),
    };
  });
  const databases = Object.entries(figures.storeOperationsPerPayment).sort(([x], [y]) => x.localeCompare(y)).map(([service, operations]) => {
    const writes = Object.entries(operations).filter(([key]) => WRITE_OPERATIONS.has(key.split(' ')[1])).reduce((t, [, n]) => t + n, 0);
    const reads = Object.entries(operations).filter(([key]) => !WRITE_OPERATIONS.has(key.split(' ')[1]) && key.split(' ')[1] !== 'createIndex').reduce((t, [, n]) => t + n, 0);
    const writesPerSecond = rates.map((rate) => Math.round(rate * writes));
    return {
      service, writesPerPayment: round(writes), readsPerPayment: round(reads), source: `${SOURCE}.storeOperationsPerPayment["${service}"]`,
      writesPerSecond, readsPerSecond: rates.map((rate) => Math.round(rate * reads)), primaries: writesPerSecond.map((n) => primariesFor(n, a)),
    };
  });
  const shardKeys = databases.filter((d) => d.primaries.some((p) => p > 1)).flatMap((d) => {
    const byCollection = new Map<string, number>();
    for (const [key, n] of Object.entries(figures.storeOperationsPerPayment[d.service])) {
      const [collection, operation] = key.split(' ');
      if (WRITE_OPERATIONS.has(operation)) byCollection.set(collection, (byCollection.get(collection) ?? 0) + n);
    }
    return [...byCollection].sort(([x, m], [y, n]) => n - m || x.localeCompare(y)).map(([collection, writes]) => ({
      service: d.service, collection, writesPerPayment: round(writes), writesPerSecond: rates.map((rate) => Math.round(rate * writes)),
      ...(SHARD_KEYS[collection] ?? { key: '{ _id: "hashed" }', why: 'no key chosen for this collection yet: review its queries before sharding' }),
    }));
  });
  const webhooksPerPayment = Object.values(figures.webhookDeliveriesPerPayment).reduce((t, n) => t + n, 0);
  const paymentsCollectionWritesPerPayment = Object.entries(figures.storeOperationsPerPayment['quotes-transactions'] ?? {})
    .filter(([key]) => key.split(' ')[0] === 'payments' && WRITE_OPERATIONS.has(key.split(' ')[1])).reduce((t, [, v]) => t + v, 0);
  return {
    rates, services, topics, databases, shardKeys, webhooksPerPayment: round(webhooksPerPayment),
    paymentsCollectionWritesPerPayment: round(paymentsCollectionWritesPerPayment),
  };
}

const n = (value: number) => value.toLocaleString('en-US');
/** A table cell: a `|` inside it would end the cell. */
const cell = (value: string | number) => String(value).replace(/\|/g, '\\|');
const table = (head: string[], rows: (string | number)[][]) =>
  [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n') + '\n';

/** What the model says, in sentences: the totals at each rate and the limits one platform meets. */
function summary(model: CapacityModel, a: Assumptions): string {
  const lines = model.rates.map((rate, i) => {
    const replicas = model.services.reduce((t, s) => t + s.replicas[i], 0);
    const cores = model.services.reduce((t, s) => t + s.cores[i], 0);
    const sharded = model.databases.filter((d) => d.primaries[i] > 1).map((d) => `${d.service} (${d.primaries[i]} shards)`);
    const writes = model.databases.reduce((t, d) => t + d.writesPerSecond[i], 0);
    const partitions = model.topics.map((t) => `${t.partitions[i]} on \`${t.topic}\``).join(', ');
    return `- **${n(rate)} payments a second**: ${n(Math.round(cores * 10) / 10)} cores of Node.js in ${n(replicas)} replicas; `
      + `${n(writes)} MongoDB writes a second; ${sharded.length ? `sharded: ${sharded.join(', ')}` : 'every database on one primary'}; `
      + `Kafka partitions: ${partitions || 'none carry payment events'}.`;
  });
  const paymentWrites = model.paymentsCollectionWritesPerPayment;
  if (paymentWrites > 0) {
    lines.push(`- **One platform** keeps its payments on one shard (the \`payments\` shard key is its platform, below): at `
      + `${paymentWrites} writes per payment to that collection, one platform reaches at most about `
      + `${n(Math.floor(a.primaryWritesPerSecond / paymentWrites))} payments a second on one primary's budget, whatever the shard count.`);
  }
  return `${lines.join('\n')}\n`;
}

/** Where the CPU behind the replica counts was measured, and under what load. */
function machineNote(inputs: CapacityInputs): string {
  const load = /load average: ([\d.]+)/.exec(inputs.machine.uptimeBefore)?.[1] ?? 'unknown';
  return `- The CPU behind the replica counts was measured on a ${inputs.machine.description} (1-minute load average ${load} `
    + 'as the run began): on a dedicated core a payment costs less, and cores and replicas fall in proportion.\n';
}

/** The markdown sections of docs/capacity.md, by name (`<!-- generated: NAME -->`). */
export function capacitySections(inputs: CapacityInputs, a: Assumptions = ASSUMPTIONS): Record<string, string> {
  const model = capacityModel(inputs, a);
  const f = inputs.paymentWrites.serviceProcesses;
  const at = model.rates.map((r) => `${n(r)}/s`);
  const m = inputs.machine;
  return {
    'capacity-summary': summary(model, a) + machineNote(inputs),
    'capacity-measured': [
      `Measured ${inputs.measuredAt} by \`${inputs.command}\` on a ${m.description} (${m.cpus} × ${m.cpuModel}, Node ${m.node}).`,
      `Load (\`uptime\`) before: \`${m.uptimeBefore}\`; after: \`${m.uptimeAfter}\`.`,
      `Separate processes on Kafka: ${n(f.payments)} create + execute by ${f.clients} clients, each settled and its webhooks delivered, `
        + `${n(f.wallMs)} ms (${f.perSecond}/s on this machine, not a capacity figure).`,
      '',
      table(['Figure', 'Per payment', 'Source (`docs/capacity-inputs.json`)'], [
        ...Object.entries(f.cpuMsPerPayment).sort(([x], [y]) => x.localeCompare(y)).map(([c, v]) => [`CPU, ${c}`, `${v} ms`, `\`${SOURCE}.cpuMsPerPayment["${c}"]\``]),
        ['CPU, all processes', `${f.cpuMsPerPaymentTotal} ms`, `\`${SOURCE}.cpuMsPerPaymentTotal\``],
        ...(inputs.paymentWrites.cpuMsPerCreateExecute !== undefined
          ? [['CPU, the one-process system (`all`) for comparison', `${inputs.paymentWrites.cpuMsPerCreateExecute} ms`, '`paymentWrites.cpuMsPerCreateExecute`']] : []),
        ...Object.entries(f.storeWritesPerPayment).sort(([x], [y]) => x.localeCompare(y)).map(([s, v]) => [`Store writes, ${s} database`, v, `\`${SOURCE}.storeWritesPerPayment["${s}"]\``]),
        ...Object.entries(f.eventsPerPayment).sort(([x], [y]) => x.localeCompare(y)).map(([t, v]) => [`Events, \`${t}\``, v, `\`${SOURCE}.eventsPerPayment["${t}"]\``]),
        ...Object.entries(f.webhookDeliveriesPerPayment).sort(([x], [y]) => x.localeCompare(y)).map(([o, v]) => [`Webhook deliveries, ${o}`, v, `\`${SOURCE}.webhookDeliveriesPerPayment["${o}"]\``]),
        ['Webhooks the receiver answered', f.webhooksReceivedPerPayment, `\`${SOURCE}.webhooksReceivedPerPayment\``],
      ]),
    ].join('\n'),
    'capacity-writes-by-collection': table(['Database', 'Collection', 'Operation', 'Per payment'],
      Object.entries(f.storeOperationsPerPayment).sort(([x], [y]) => x.localeCompare(y)).flatMap(([s, ops]) =>
        Object.entries(ops).map(([key, v]) => [s, `\`${key.split(' ')[0]}\``, key.split(' ')[1], v]))),
    'capacity-assumptions': table(['Assumption (not measured)', 'Value'], [
      ['Payment rates sized for', model.rates.map(n).join(', ')],
      ['Cores one replica (one Node.js process) gets work done on', a.coresPerReplica],
      ['Share of that core a replica is planned at', a.replicaUtilisation],
      ['Replicas of each component at least', a.minReplicas],
      ['**Write operations a second one MongoDB primary is planned at**', n(a.primaryWritesPerSecond)],
      ['Events a second one Kafka partition is planned at', n(a.partitionEventsPerSecond)],
      ['Partitions of a topic at least', a.minPartitions],
    ]),
    'capacity-replicas': table(['Component', 'CPU per payment', ...model.rates.flatMap((r) => [`Cores at ${n(r)}/s`, `Replicas at ${n(r)}/s`])],
      model.services.map((s) => [s.component, `${s.cpuMs} ms`, ...s.cores.flatMap((c, i) => [c, s.replicas[i]])])),
    'capacity-partitions': table(['Topic', 'Events per payment', 'Consumed by', ...model.rates.flatMap((r) => [`Events/s at ${n(r)}/s`, `Partitions at ${n(r)}/s`])],
      model.topics.map((t) => [`\`${t.topic}\``, t.perPayment, t.consumers.join(', '), ...t.perSecond.flatMap((e, i) => [n(e), t.partitions[i]])])),
    'capacity-mongodb': table(['Database (service)', 'Writes per payment', 'Reads per payment', ...at.flatMap((r) => [`Writes/s at ${r}`, `Reads/s at ${r}`, `Primaries at ${r}`])],
      model.databases.map((d) => [d.service, d.writesPerPayment, d.readsPerPayment, ...d.writesPerSecond.flatMap((w, i) => [n(w), n(d.readsPerSecond[i]), d.primaries[i]])])),
    'capacity-webhooks': table(['Webhook deliveries per payment', ...at.map((r) => `Deliveries/s at ${r}`), 'Source'],
      [[model.webhooksPerPayment, ...model.rates.map((r) => n(Math.round(r * model.webhooksPerPayment))), `\`${SOURCE}.webhookDeliveriesPerPayment\` (sum)`]]),
    'capacity-shard-keys': model.shardKeys.length === 0
      ? 'At these rates every database fits one primary: no collection needs a shard key.\n'
      : table(['Database', 'Collection', 'Writes per payment', `Writes/s at ${at[at.length - 1]}`, 'Shard key', 'Why'],
        model.shardKeys.map((c) => [c.service, `\`${c.collection}\``, c.writesPerPayment, n(c.writesPerSecond[c.writesPerSecond.length - 1]), `\`${c.key}\``, c.why])),
  };
}
