import { isPlainObject, serializeValue } from './index-keys';

/** Candidate documents (stored keys) a filter can only match among. */
export interface Plan {
  /** At most this many keys (a key may be counted twice), to pick the narrowest plan. */
  size: number;
  keys(): Iterable<string>;
}

/** What one document holds at an indexed path. */
export interface Entry {
  /** The path resolves to a value (null and [] included): the document has the field. */
  present: boolean;
  /** Serialized scalar values at the path, array elements one by one (as multikey index keys). */
  keys: Set<string>;
  /**
   * A shape the index does not reason about (arrays inside arrays, long arrays, values under a
   * non-plain object, BSON class instances): such a document is a candidate for every query.
   */
  opaque: boolean;
}

const RANGE_OPERATORS = ['$lt', '$lte', '$gt', '$gte'] as const;

/**
 * Arrays longer than this are not indexed element by element: the document is `opaque` (always a
 * candidate), so a write to a document holding a long, growing array (a counter's member list)
 * costs the index nothing instead of re-keying every element.
 */
export const MAX_INDEXED_ELEMENTS = 32;

/** A string, finite number or boolean: the values equality buckets are looked up by. */
export function scalarValue(value: unknown): string | number | boolean | undefined {
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  return undefined;
}

function isRangeBound(value: unknown): boolean {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) || value instanceof Date;
}

/** Paths with a numeric component (`items.0.sku`) mean an array position or a field name; they are not indexed. */
export function isIndexablePath(path: string): boolean {
  return path !== '_id' && !/(^|\.)\d+(\.|$)/.test(path);
}

/**
 * A secondary index of the embedded store on one field path: which documents hold which scalar
 * value there, and which hold the field at all. It only narrows the documents a filter is tested
 * against (the filter itself still decides), so it must never leave out a document the filter
 * could match: anything it does not model is `opaque` and always a candidate.
 *
 * Served: equality to a string, number or boolean (`v`, `{$eq: v}`, `{$in: [...]}`), and the
 * conditions that only match documents holding the field (`$lt`/`$lte`/`$gt`/`$gte` with a
 * string, number or date bound, `{$exists: true}`). Anything else is not planned.
 */
export class FieldIndex {
  private readonly parts: string[];
  private readonly buckets = new Map<string, Set<string>>();
  private readonly present = new Set<string>();
  private readonly opaque = new Set<string>();

  /** The top-level field the path starts with: a write that keeps it keeps the entry. */
  readonly reads: readonly string[];

  constructor(readonly path: string) {
    this.parts = path.split('.');
    this.reads = [this.parts[0]];
  }

  add(key: string, doc: Record<string, unknown>): void {
    this.update(key, undefined, doc);
  }

  remove(key: string, doc: Record<string, unknown>): void {
    this.update(key, doc, undefined);
  }

  /** A document stored under `key` was written (`after`) or deleted; only what changed at the path is touched. */
  update(key: string, before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined): void {
    const old = before && this.entryOf(before);
    const now = after && this.entryOf(after);
    if (old?.opaque && !now?.opaque) this.opaque.delete(key);
    if (now?.opaque) this.opaque.add(key);
    if (old?.present && !now?.present) this.present.delete(key);
    if (now?.present) this.present.add(key);
    for (const value of old?.keys ?? []) {
      if (now?.keys.has(value)) continue;
      const bucket = this.buckets.get(value);
      if (!bucket) continue;
      bucket.delete(key);
      if (bucket.size === 0) this.buckets.delete(value);
    }
    for (const value of now?.keys ?? []) {
      if (old?.keys.has(value)) continue;
      let bucket = this.buckets.get(value);
      if (!bucket) this.buckets.set(value, bucket = new Set());
      bucket.add(key);
    }
  }

  /** The candidates for `condition` on this path, or undefined when the index cannot narrow it. */
  plan(condition: unknown): Plan | undefined {
    const direct = scalarValue(condition);
    if (direct !== undefined) return this.valuesPlan([direct]);
    if (!isPlainObject(condition)) return undefined;
    const operators = Object.keys(condition);
    if (operators.length === 0 || operators.some((op) => !op.startsWith('$'))) return undefined;
    if ('$eq' in condition && scalarValue(condition.$eq) !== undefined) {
      return this.valuesPlan([condition.$eq as string]);
    }
    if (Array.isArray(condition.$in) && condition.$in.every((v) => scalarValue(v) !== undefined)) {
      return this.valuesPlan(condition.$in);
    }
    if (RANGE_OPERATORS.some((op) => op in condition && isRangeBound(condition[op])) || condition.$exists === true) {
      return { size: this.present.size + this.opaque.size, keys: () => union([this.present, this.opaque]) };
    }
    return undefined;
  }

  private valuesPlan(values: unknown[]): Plan {
    const sets = [...new Set(values.map(serializeValue))].map((v) => this.buckets.get(v)).filter((
      s,
    ): s is Set<string> => !!s);
    sets.push(this.opaque);
    return { size: sets.reduce((n, s) => n + s.size, 0), keys: () => union(sets) };
  }

  private entryOf(doc: Record<string, unknown>): Entry {
    return readPath(doc, this.parts);
  }
}

/** What `doc` holds at the path `parts` (see Entry). */
export function readPath(doc: Record<string, unknown>, parts: readonly string[]): Entry {
  const entry: Entry = { present: false, keys: new Set(), opaque: false };
  if (parts.length === 1) {
    // The common case, a top-level scalar or nothing: no walk.
    const value = doc[parts[0]];
    if (value === undefined) return entry;
    if (value === null || typeof value !== 'object') {
      entry.present = true;
      entry.keys.add(serializeValue(value));
      return entry;
    }
  }
  collect(doc, parts, 0, entry);
  return entry;
}

function collect(value: unknown, parts: readonly string[], depth: number, entry: Entry): void {
  if (depth === parts.length) {
    entry.present = true;
    if (Array.isArray(value) && value.length > MAX_INDEXED_ELEMENTS) {
      entry.opaque = true;
      return;
    }
    for (const item of Array.isArray(value) ? value : [value]) {
      if (
        Array.isArray(item)
        || (item !== null && typeof item === 'object' && !isPlainObject(item) && !(item instanceof Date))
      ) entry.opaque = true;
      else entry.keys.add(serializeValue(item));
    }
    return;
  }
  if (Array.isArray(value)) {
    if (value.length > MAX_INDEXED_ELEMENTS) {
      entry.opaque = true;
      return;
    }
    for (const item of value) {
      if (isPlainObject(item)) collect(item, parts, depth, entry);
      else if (item !== null && typeof item === 'object') entry.opaque = true;
    }
    return;
  }
  if (isPlainObject(value)) {
    const next = value[parts[depth]];
    if (next !== undefined) collect(next, parts, depth + 1, entry);
    return;
  }
  if (value !== null && typeof value === 'object') entry.opaque = true;
}

function* union(sets: Iterable<Set<string>>): Iterable<string> {
  const seen = new Set<string>();
  for (const set of sets) {
    for (const key of set) {
      if (seen.has(key)) continue;
      seen.add(key);
      yield key;
    }
  }
}
