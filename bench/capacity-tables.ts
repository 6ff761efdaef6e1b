import {
  ASSUMPTIONS,
  capacityModel,
  SOURCE,
  type Assumptions,
  type CapacityInputs,
  type CapacityModel,
} from './capacity-model';

/** docs/capacity.md's generated sections: the capacity model and its measured inputs as markdown. */
const n = (value: number) => value.toLocaleString('en-US');
/** A table cell: a `|` inside it would end the cell. */
const cell = (value: string | number) => String(value).replace(/\|/g, '\\|');
const row = (cells: (string | number)[]) => `| ${cells.map(cell).join(' | ')} |`;
const table = (head: string[], rows: (string | number)[][]) =>
  `${[`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map(row)].join('\n')}\n`;
const byName = <T>(record: Record<string, T>) => Object.entries(record).sort(([x], [y]) => x.localeCompare(y));
const code = (text: string) => `\`${text}\``;

/** What the model says, in sentences: the totals at each rate and the limit one platform meets. */
function summary(model: CapacityModel, a: Assumptions): string {
  const lines = model.rates.map((rate, i) => {
    const replicas = model.services.reduce((t, s) => t + s.replicas[i], 0);
    const cores = model.services.reduce((t, s) => t + s.cores[i], 0);
    const sharded = model.databases.filter((d) => d.primaries[i] > 1)
      .map((d) => `${d.service} (${d.primaries[i]} shards)`);
    const writes = model.databases.reduce((t, d) => t + d.writesPerSecond[i], 0);
    const partitions = model.topics.map((t) => `${t.partitions[i]} on ${code(t.topic)}`).join(', ');
    return `- **${n(rate)} payments a second**: ${n(Math.round(cores * 10) / 10)} cores of Node.js in `
      + `${n(replicas)} replicas; ${n(writes)} MongoDB writes a second; `
      + `${sharded.length ? `sharded: ${sharded.join(', ')}` : 'every database on one primary'}; `
      + `Kafka partitions: ${partitions || 'none carry payment events'}.`;
  });
  const paymentWrites = model.paymentsCollectionWritesPerPayment;
  if (paymentWrites > 0) {
    lines.push(
      '- **One platform** keeps its payments on one shard (the `payments` shard key is its platform, below): '
        + `at ${paymentWrites} writes per payment to that collection, one platform reaches at most about `
        + `${n(Math.floor(a.primaryWritesPerSecond / paymentWrites))} payments a second on one primary's budget, `
        + 'whatever the shard count.',
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Where the CPU behind the replica counts was measured, and under what load. */
function machineNote(inputs: CapacityInputs): string {
  const load = /load average: ([\d.]+)/.exec(inputs.machine.uptimeBefore)?.[1] ?? 'unknown';
  return `- The CPU behind the replica counts was measured on a ${inputs.machine.description} `
    + `(1-minute load average ${load} as the run began): on a dedicated core a payment costs less, `
    + 'and cores and replicas fall in proportion.\n';
}

/** The measured figures per payment, each with the field of the inputs it comes from. */
function measured(inputs: CapacityInputs): string {
  const f = inputs.paymentWrites.serviceProcesses;
  const m = inputs.machine;
  const source = (field: string, key?: string) => code(`${SOURCE}.${field}${key === undefined ? '' : `["${key}"]`}`);
  const oneProcess = inputs.paymentWrites.cpuMsPerCreateExecute;
  return [
    `Measured ${inputs.measuredAt} by ${code(inputs.command)} on a ${m.description} `
    + `(${m.cpus} × ${m.cpuModel}, Node ${m.node}).`,
    `Load (\`uptime\`) before: ${code(m.uptimeBefore)}; after: ${code(m.uptimeAfter)}.`,
    `Separate processes on Kafka: ${n(f.payments)} create + execute by ${f.clients} clients, each settled and its `
    + `webhooks delivered, ${n(f.wallMs)} ms (${f.perSecond}/s on this machine, not a capacity figure).`,
    '',
    table(['Figure', 'Per payment', 'Source (`docs/capacity-inputs.json`)'], [
      ...byName(f.cpuMsPerPayment).map(([c, v]) => [`CPU, ${c}`, `${v} ms`, source('cpuMsPerPayment', c)]),
      ['CPU, all processes', `${f.cpuMsPerPaymentTotal} ms`, source('cpuMsPerPaymentTotal')],
      ...(oneProcess === undefined ? [] : [[
        'CPU, the one-process system (`all`) for comparison',
        `${oneProcess} ms`,
        code('paymentWrites.cpuMsPerCreateExecute'),
      ]]),
      ...byName(f.storeWritesPerPayment)
        .map(([s, v]) => [`Store writes, ${s} database`, v, source('storeWritesPerPayment', s)]),
      ...byName(f.eventsPerPayment).map(([t, v]) => [`Events, ${code(t)}`, v, source('eventsPerPayment', t)]),
      ...byName(f.webhookDeliveriesPerPayment)
        .map(([o, v]) => [`Webhook deliveries, ${o}`, v, source('webhookDeliveriesPerPayment', o)]),
      ['Webhooks the receiver answered', f.webhooksReceivedPerPayment, source('webhooksReceivedPerPayment')],
    ]),
  ].join('\n');
}

function assumptions(model: CapacityModel, a: Assumptions): string {
  return table(['Assumption (not measured)', 'Value'], [
    ['Payment rates sized for', model.rates.map(n).join(', ')],
    ['Cores one replica (one Node.js process) gets work done on', a.coresPerReplica],
    ['Share of that core a replica is planned at', a.replicaUtilisation],
    ['Replicas of each component at least', a.minReplicas],
    ['**Write operations a second one MongoDB primary is planned at**', n(a.primaryWritesPerSecond)],
    ['Events a second one Kafka partition is planned at', n(a.partitionEventsPerSecond)],
    ['Partitions of a topic at least', a.minPartitions],
  ]);
}

/** The markdown sections of docs/capacity.md, by name (`<!-- generated: NAME -->`). */
export function capacitySections(inputs: CapacityInputs, a: Assumptions = ASSUMPTIONS): Record<string, string> {
  const model = capacityModel(inputs, a);
  const operations = inputs.paymentWrites.serviceProcesses.storeOperationsPerPayment;
  const at = model.rates.map((r) => `${n(r)}/s`);
  const last = at.length - 1;
  return {
    'capacity-summary': summary(model, a) + machineNote(inputs),
    'capacity-measured': measured(inputs),
    'capacity-writes-by-collection': table(
      ['Database', 'Collection', 'Operation', 'Per payment'],
      byName(operations).flatMap(([s, ops]) =>
        Object.entries(ops)
          .map(([key, v]) => [s, code(key.split(' ')[0]), key.split(' ')[1], v])
      ),
    ),
    'capacity-assumptions': assumptions(model, a),
    'capacity-replicas': table(
      ['Component', 'CPU per payment', ...at.flatMap((r) => [`Cores at ${r}`, `Replicas at ${r}`])],
      model.services.map((s) => [s.component, `${s.cpuMs} ms`, ...s.cores.flatMap((c, i) => [c, s.replicas[i]])]),
    ),
    'capacity-partitions': table(
      ['Topic', 'Events per payment', 'Consumed by', ...at.flatMap((r) => [`Events/s at ${r}`, `Partitions at ${r}`])],
      model.topics.map((
        t,
      ) => [
        code(t.topic),
        t.perPayment,
        t.consumers.join(', '),
        ...t.perSecond.flatMap((e, i) => [n(e), t.partitions[i]]),
      ]),
    ),
    'capacity-mongodb': table(
      [
        'Database (service)',
        'Writes per payment',
        'Reads per payment',
        ...at.flatMap((r) => [`Writes/s at ${r}`, `Reads/s at ${r}`, `Primaries at ${r}`]),
      ],
      model.databases.map((
        d,
      ) => [
        d.service,
        d.writesPerPayment,
        d.readsPerPayment,
        ...d.writesPerSecond.flatMap((w, i) => [n(w), n(d.readsPerSecond[i]), d.primaries[i]]),
      ]),
    ),
    'capacity-webhooks': table(['Webhook deliveries per payment', ...at.map((r) => `Deliveries/s at ${r}`), 'Source'], [
      [
        model.webhooksPerPayment,
        ...model.rates.map((r) => n(Math.round(r * model.webhooksPerPayment))),
        `${code(`${SOURCE}.webhookDeliveriesPerPayment`)} (sum)`,
      ],
    ]),
    'capacity-shard-keys': model.shardKeys.length === 0
      ? 'At these rates every database fits one primary: no collection needs a shard key.\n'
      : table(
        ['Database', 'Collection', 'Writes per payment', `Writes/s at ${at[last]}`, 'Shard key', 'Why'],
        model.shardKeys.map((c) => [
          c.service,
          code(c.collection),
          c.writesPerPayment,
          n(c.writesPerSecond[last]),
          code(c.key),
          c.why,
        ]),
      ),
  };
}
