import { compareBson } from './bson-compare';
import type { Doc, Sort } from './document-store';
import { pathValues } from './index-keys';

/**
 * MongoDB's sort: BSON comparison order, missing fields as null, and an array field sorting by
 * its smallest element ascending and its largest descending. Ties keep the input order.
 */
export function sortDocuments<T extends Doc>(docs: readonly T[], sort: Sort): T[] {
  const fields = Object.entries(sort);
  for (const [path, direction] of fields) {
    if (direction !== 1 && direction !== -1) throw new Error(`bad sort direction for '${path}': ${String(direction)}`);
  }
  const keyed = docs.map((doc) => ({ doc, keys: fields.map(([path, direction]) => sortKey(doc, path, direction)) }));
  keyed.sort((a, b) => {
    for (let i = 0; i < fields.length; i++) {
      const order = compareBson(a.keys[i], b.keys[i]);
      if (order !== 0) return order * fields[i][1];
    }
    return 0;
  });
  return keyed.map((entry) => entry.doc);
}

function sortKey(doc: Doc, path: string, direction: 1 | -1): unknown {
  const values = pathValues(doc, path);
  let key = values[0];
  for (let i = 1; i < values.length; i++) {
    if (compareBson(values[i], key) * direction < 0) key = values[i];
  }
  return key;
}
