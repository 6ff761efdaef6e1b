import { compareBson } from './bson-compare';
import type { Doc, Sort } from './document-store';
import { pathValues } from './index-keys';

/**
 * MongoDB's sort: BSON comparison order, missing fields as null, and an array field sorting by
 * its smallest element ascending and its largest descending. Ties keep the input order.
 */
export function sortDocuments<T extends Doc>(docs: readonly T[], sort: Sort): T[] {
  const fields = sortFields(sort);
  const keyed = docs.map((doc) => ({ doc, keys: sortKeysOf(doc, fields) }));
  keyed.sort((a, b) => compareSortKeys(a.keys, b.keys, fields));
  return keyed.map((entry) => entry.doc);
}

export type SortFields = ReadonlyArray<readonly [string, 1 | -1]>;

/** The sort's fields in order, each with its direction (1 or -1). */
export function sortFields(sort: Sort): SortFields {
  const fields = Object.entries(sort);
  for (const [path, direction] of fields) {
    if (direction !== 1 && direction !== -1) throw new Error(`bad sort direction for '${path}': ${String(direction)}`);
  }
  return fields;
}

/** A document's key for each sort field (see sortKey), computed once per document. */
export function sortKeysOf(doc: Doc, fields: SortFields): unknown[] {
  return fields.map(([path, direction]) => sortKey(doc, path, direction));
}

/** Orders two documents by their sort keys; 0 when they tie on every field. */
export function compareSortKeys(a: readonly unknown[], b: readonly unknown[], fields: SortFields): number {
  for (let i = 0; i < fields.length; i++) {
    const order = compareBson(a[i], b[i]);
    if (order !== 0) return order * fields[i][1];
  }
  return 0;
}

function sortKey(doc: Doc, path: string, direction: 1 | -1): unknown {
  const values = pathValues(doc, path);
  let key = values[0];
  for (let i = 1; i < values.length; i++) {
    if (compareBson(values[i], key) * direction < 0) key = values[i];
  }
  return key;
}
