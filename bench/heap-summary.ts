import { readFileSync } from 'node:fs';

/**
 * Sums a V8 heap snapshot by constructor: `node dist/bench/heap-summary.js a.heapsnapshot [b.heapsnapshot]`
 * prints the 30 largest groups (shallow bytes and count); with two snapshots, the 30 that grew most
 * from the first to the second. Used to find what grows under the scale benchmark's live phase.
 */
interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

type Groups = Map<string, { bytes: number; count: number }>;

function summarize(path: string): Groups {
  const snap = JSON.parse(readFileSync(path, 'utf8')) as Snapshot;
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const groups: Groups = new Map();
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt]];
    const name = type === 'object' || type === 'native' || type === 'closure'
      ? snap.strings[snap.nodes[i + nameAt]]
      : '';
    const key = `${type}:${name.slice(0, 60)}`;
    const group = groups.get(key) ?? { bytes: 0, count: 0 };
    group.bytes += snap.nodes[i + sizeAt];
    group.count += 1;
    groups.set(key, group);
  }
  return groups;
}

const [first, second] = process.argv.slice(2);
const a = summarize(first);
const total = (g: Groups) => [...g.values()].reduce((n, v) => n + v.bytes, 0);
const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
if (!second) {
  console.log(`total ${kb(total(a))}`);
  for (const [key, v] of [...a].sort((x, y) => y[1].bytes - x[1].bytes).slice(0, 30)) {
    console.log(kb(v.bytes).padStart(10), String(v.count).padStart(9), key);
  }
} else {
  const b = summarize(second);
  console.log(`total ${kb(total(a))} → ${kb(total(b))}`);
  const keys = new Set([...a.keys(), ...b.keys()]);
  const growth = [...keys].map((key) => {
    const before = a.get(key) ?? { bytes: 0, count: 0 };
    const after = b.get(key) ?? { bytes: 0, count: 0 };
    return { key, bytes: after.bytes - before.bytes, count: after.count - before.count, after };
  });
  for (const g of growth.sort((x, y) => y.bytes - x.bytes).slice(0, 30)) {
    console.log(kb(g.bytes).padStart(10), String(g.count).padStart(9), kb(g.after.bytes).padStart(10), g.key);
  }
}
