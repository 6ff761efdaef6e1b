import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ASSUMPTIONS,
  capacityModel,
  partitionsFor,
  primariesFor,
  replicasFor,
  type CapacityInputs,
} from '../../bench/capacity-model';
import { capacitySections } from '../../bench/capacity-tables';
import { DOC, readInputs, rewriteSections } from '../../bench/capacity';
import { samples } from '../../bench/service-processes';

/**
 * docs/capacity.md's tables are what `npm run capacity` computes from the saved figures
 * (docs/capacity-inputs.json, written by `npm run capacity -- measure`), and the model follows
 * its inputs: every figure it uses is read from the benchmark's output, none is typed in.
 */
const inputs = readInputs();
const figures = inputs.paymentWrites.serviceProcesses;

/** The value at a source path such as `paymentWrites.serviceProcesses.cpuMsPerPayment["gateway"]`. */
function valueAt(path: string): unknown {
  const keys = [...path.matchAll(/\["([^"]+)"\]|([^.[\]]+)/g)].map((m) => m[1] ?? m[2]);
  return keys.reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], inputs);
}

test('docs/capacity.md carries the tables computed from the saved inputs (npm run capacity -- --update-docs)', () => {
  const markdown = readFileSync(DOC, 'utf8');
  expect(rewriteSections(markdown, capacitySections(inputs))).toBe(markdown);
  for (const name of Object.keys(capacitySections(inputs))) expect(markdown).toContain(`<!-- generated: ${name} -->`);
});

test('the saved inputs come from a run: the command, the date, the machine and its load, and payments measured', () => {
  expect(inputs.command).toBe('npm run capacity -- measure');
  expect(Number.isNaN(Date.parse(inputs.measuredAt))).toBe(false);
  expect(inputs.machine.uptimeBefore).toMatch(/load average/);
  expect(figures.payments).toBeGreaterThan(0);
  const components = ['gateway', 'auth', 'accounts', 'quotes-transactions', 'notifications'];
  expect(Object.keys(figures.cpuMsPerPayment)).toEqual(expect.arrayContaining(components));
  expect(figures.eventsPerPayment['payments.events.v1']).toBeGreaterThan(0);
  expect(figures.webhooksReceivedPerPayment).toBeGreaterThan(0);
});

test('every figure the model uses names the field of the inputs it was read from', () => {
  const model = capacityModel(inputs);
  for (const s of model.services) expect(valueAt(s.source)).toBe(s.cpuMs);
  for (const t of model.topics) expect(valueAt(t.source)).toBe(t.perPayment);
  for (const d of model.databases) expect(typeof valueAt(d.source)).toBe('object');
});

test('replicas, partitions and primaries follow the rate and the labelled assumptions', () => {
  // 2.4 cores at 0.6 of one core each: 4 replicas; never under the minimum.
  expect(replicasFor(2.4)).toBe(4);
  expect(replicasFor(0.1)).toBe(ASSUMPTIONS.minReplicas);
  expect(partitionsFor(12_500, 3)).toBe(Math.ceil(12_500 / ASSUMPTIONS.partitionEventsPerSecond));
  expect(partitionsFor(10, 30)).toBe(30);
  expect(primariesFor(ASSUMPTIONS.primaryWritesPerSecond)).toBe(1);
  expect(primariesFor(ASSUMPTIONS.primaryWritesPerSecond + 1)).toBe(2);
});

test('the model follows what a payment costs: twice the CPU, twice the cores; twice the writes, twice the rate', () => {
  const doubled: CapacityInputs = JSON.parse(JSON.stringify(inputs)) as CapacityInputs;
  const d = doubled.paymentWrites.serviceProcesses;
  for (const c of Object.keys(d.cpuMsPerPayment)) d.cpuMsPerPayment[c] *= 2;
  for (const ops of Object.values(d.storeOperationsPerPayment)) for (const k of Object.keys(ops)) ops[k] *= 2;
  const base = capacityModel(inputs);
  const twice = capacityModel(doubled);
  base.services.forEach((s, i) => s.cores.forEach((c, r) => expect(twice.services[i].cores[r]).toBeCloseTo(2 * c, 0)));
  base.databases.forEach((db, i) =>
    db.writesPerSecond.forEach((w, r) => {
      expect(Math.abs(twice.databases[i].writesPerSecond[r] - 2 * w)).toBeLessThanOrEqual(1);
    })
  );
});

test('a database over one primary gets a shard key for each collection it writes, the busiest first', () => {
  const model = capacityModel(inputs, { ...ASSUMPTIONS, primaryWritesPerSecond: 100 });
  const written = model.databases.filter((db) => db.primaries.some((p) => p > 1)).map((db) => db.service);
  expect(written).toEqual(expect.arrayContaining(['quotes-transactions', 'notifications']));
  expect(new Set(model.shardKeys.map((c) => c.service))).toEqual(new Set(written));
  for (const service of written) {
    const rows = model.shardKeys.filter((c) => c.service === service).map((c) => c.writesPerPayment);
    expect(rows).toEqual([...rows].sort((a, b) => b - a));
  }
  expect(model.shardKeys.every((c) => c.key.length > 0 && c.why.length > 0)).toBe(true);
});

test('the benchmark reads counters from Prometheus text by the labels asked for, summing the others', () => {
  const text = [
    '# TYPE outbox_events_published_total counter',
    'outbox_events_published_total{topic="payments.events.v1"} 12',
    'outbox_events_published_total{topic="accounts.events.v1"} 3',
    'outbox_events_published_total_created{topic="payments.events.v1"} 1700000000',
    'webhook_deliveries_total{outcome="ACKNOWLEDGED",status="DELIVERED"} 8',
    'webhook_deliveries_total{outcome="REJECTED",status="PENDING"} 1',
  ].join('\n');
  expect(samples(text, 'outbox_events_published_total', ['topic']))
    .toEqual(new Map([['payments.events.v1', 12], ['accounts.events.v1', 3]]));
  expect(samples(text, 'webhook_deliveries_total', ['outcome', 'status']).get('ACKNOWLEDGED DELIVERED')).toBe(8);
  expect(samples(text, 'webhook_deliveries_total', ['status'])).toEqual(new Map([['DELIVERED', 8], ['PENDING', 1]]));
});

test('the docs link the page', () => {
  expect(readFileSync(join(__dirname, '../../docs/architecture.md'), 'utf8')).toContain('(capacity.md)');
});
