import type { Doc, Filter } from './document-store';
import { isIndexablePath, readPath, scalarValue } from './field-index';
import { isPlainObject, pathValues, serializeValue, topField } from './index-keys';
import { mingoEngine } from './mingo-engine';

/**
 * A non-unique compound index's sort entries: the documents of each combination of its leading
 * fields' values, in order of its sort field. `{platformId: 1, status: 1, createdAt: -1}` keeps, per
 * platform and status, the documents by `createdAt`; a trailing `_id` is the tie-break of the sort
 * field (`{platformId: 1, createdAt: -1, _id: -1}`: per platform, by `createdAt`).
 */
export interface SortIndex {
  id: string;
  /** The declared index's name. */
  name: string;
  leading: string[];
  leadParts: string[][];
  sortField: string;
  /** The top-level fields a document's place depends on. */
  reads: readonly string[];
  /** A partial index's filter: only documents matching it have entries, so only a filter implying it may use them. */
  partial?: { filter: Filter; test(doc: unknown): boolean };
}

/** A sort entry for a document whose leading fields are not one scalar each. */
export const IRREGULAR_LEAD = '#I';
/** The sort key of a document whose sort field has no single orderable value (arrays, objects, binary). */
export const IRREGULAR_SORT = '';
/** Above every sort key (they start with A, B, C, H or I). */
const TOP_KEY = 'Z';

/** The sort index a declared index keeps, if it keeps one. */
export function sortIndexOf(
  fields: readonly string[],
  unique: boolean,
  name: string,
  partialFilter?: Filter,
): SortIndex | undefined {
  if (unique || fields.length < 2) return undefined;
  // A partial filter of top-level conditions only: which fields a write must change to move a document in or out.
  if (partialFilter && Object.keys(partialFilter).some((field) => field.startsWith('$'))) return undefined;
  const sortAt = fields.length >= 3 && fields[fields.length - 1] === '_id' ? fields.length - 2 : fields.length - 1;
  const leading = fields.slice(0, sortAt);
  const sortField = fields[sortAt];
  if (![...leading, sortField].every(isIndexablePath)) return undefined;
  const partial = partialFilter && Object.keys(partialFilter).length ? partialFilter : undefined;
  return {
    id: [...leading, sortField].join('\u0000') + (partial ? `\u0000?${serializeValue(partial)}` : ''),
    name,
    leading,
    leadParts: leading.map((field) => field.split('.')),
    sortField,
    reads: [...new Set([...leading, sortField, ...Object.keys(partial ?? {})].map(topField))],
    ...(partial ? { partial: { filter: partial, test: tester(partial) } } : {}),
  };
}

function tester(filter: Filter): (doc: unknown) => boolean {
  const compiled = mingoEngine.compileFilter(filter);
  return (doc) => compiled.test(doc);
}

/** Whether a filter's conjuncts imply the index's partial filter: each of its conditions is one of theirs. */
export function implies(parts: Filter[], index: SortIndex): boolean {
  if (!index.partial) return true;
  return Object.entries(index.partial.filter).every(([field, condition]) =>
    parts.some((part) => field in part && serializeValue(part[field]) === serializeValue(condition))
  );
}

/** The id the sort entries of a compound index had when only its first field led (store format 3 and before). */
export function formerSortIndexId(fields: readonly string[], unique: boolean): string | undefined {
  if (unique || fields.length < 2 || !isIndexablePath(fields[0]) || !isIndexablePath(fields[1])) return undefined;
  return `${fields[0]}\u0000${fields[1]}`;
}

/** A document's entry in a sort index: the combination of its leading values, and its sort key. */
export interface SortPlace {
  lead: string;
  sortKey: string;
}

/**
 * Marks a document with several places (a leading field holding several values, a multikey index as MongoDB's): one
 * entry under this lead besides them, so that a walk or count over several leading values, which could meet such a
 * document twice, knows not to use the index.
 */
export const MULTIKEY_LEAD = '#M';
/** Places one document may have; beyond, it is irregular (ordered in memory, as an opaque lead is). */
const MOST_PLACES = 16;

/**
 * Where a document sits in a sort index: one place per combination of its leading fields' values (an array's elements
 * each lead, as MongoDB's equality matches an element), with a MULTIKEY_LEAD marker when there are several; nothing
 * when a leading field holds no value; one IRREGULAR_LEAD place when a leading value cannot be keyed.
 */
export function sortPlaces(doc: Doc, index: SortIndex): SortPlace[] {
  if (index.partial && !index.partial.test(doc)) return [];
  // One leading value per field (nearly every document) builds one string; several build the combinations.
  let lead = '';
  let several: string[] | undefined;
  for (let i = 0; i < index.leadParts.length; i++) {
    const { keys, opaque } = readPath(doc, index.leadParts[i]);
    if (keys.size === 0 && !opaque) return [];
    if (opaque || (several?.length ?? 1) * keys.size > MOST_PLACES) {
      return [{ lead: IRREGULAR_LEAD, sortKey: IRREGULAR_SORT }];
    }
    if (keys.size === 1 && !several) {
      const [key] = keys;
      lead = i === 0 ? key : `${lead},${key}`;
    } else {
      several = (several ?? [lead]).flatMap((prefix) => [...keys].map((key) => (i === 0 ? key : `${prefix},${key}`)));
    }
  }
  const values = pathValues(doc, index.sortField);
  const sortKey = (values.length === 1 ? orderedKey(values[0]) : undefined) ?? IRREGULAR_SORT;
  if (!several) return [{ lead, sortKey }];
  return [...several.map((one) => ({ lead: one, sortKey })), { lead: MULTIKEY_LEAD, sortKey: IRREGULAR_SORT }];
}

/**
 * A string whose binary order is MongoDB's order for null (and missing), numbers, strings,
 * booleans and dates; undefined for any other value (the document is then sorted in memory).
 */
export function orderedKey(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'A';
  if (typeof value === 'number') return Number.isNaN(value) ? undefined : `B${orderedNumber(value)}`;
  if (typeof value === 'string') return `C${value}`;
  if (typeof value === 'boolean') return value ? 'H1' : 'H0';
  if (value instanceof Date) {
    const time = value.getTime();
    return Number.isNaN(time) ? undefined : `I${orderedNumber(time)}`;
  }
  return undefined;
}

/** IEEE 754 bits made to sort as unsigned bytes: negatives flipped whole, positives with the sign bit set. */
function orderedNumber(n: number): string {
  const bytes = Buffer.alloc(8);
  bytes.writeDoubleBE(n === 0 ? 0 : n);
  if (bytes[0] & 0x80) for (let i = 0; i < 8; i++) bytes[i] ^= 0xff;
  else bytes[0] ^= 0x80;
  return bytes.toString('hex');
}

/** The conditions a filter ANDs together: its own fields and those of its `$and` members, nested ones too. */
export function conjuncts(filter: Filter): Filter[] {
  const out: Filter[] = [filter];
  if (Array.isArray(filter.$and)) for (const part of filter.$and) if (isPlainObject(part)) out.push(...conjuncts(part));
  return out;
}

/** Scalars a condition pins a field to by equality (`v`, `{$eq: v}`, `{$in: [...]}`), if it does. */
export function pinnedValues(condition: unknown): unknown[] | undefined {
  if (scalarValue(condition) !== undefined) return [condition];
  if (!isPlainObject(condition)) return undefined;
  if (Object.keys(condition).some((op) => !op.startsWith('$'))) return undefined;
  if ('$eq' in condition && scalarValue(condition.$eq) !== undefined) return [condition.$eq];
  if (Array.isArray(condition.$in) && condition.$in.every((v) => scalarValue(v) !== undefined)) return condition.$in;
  return undefined;
}

/** The lead entries a filter pins every leading field of the index to (their product), else undefined. */
export function pinnedLeads(parts: Filter[], index: SortIndex, most = 64): string[] | undefined {
  let leads = [''];
  for (const field of index.leading) {
    // Several conditions pinning the field: a document matches them all, so only the values they share.
    const pins = parts.map((part) => (field in part ? pinnedValues(part[field]) : undefined)).filter((values) =>
      values !== undefined
    );
    if (pins.length === 0) return undefined;
    const sets = pins.map((pinned) => new Set(pinned.map(serializeValue)));
    const values = [...sets[0]].filter((value) => sets.every((set) => set.has(value)));
    leads = leads.flatMap((prefix) => values.map((value) => (prefix === '' ? value : `${prefix},${value}`)));
    if (leads.length > most) return undefined;
  }
  return leads;
}

/** A half-open range of sort keys, [low, high). */
export interface KeyRange {
  low: string;
  high: string;
  /** Whether a condition of the filter set it (the sort field is then answered by the index). */
  bounded: boolean;
}

const EVERY_KEY: KeyRange = { low: '', high: TOP_KEY, bounded: false };

/** The type bracket of a range bound: MongoDB compares a bound only with values of its own type. */
function bracket(value: unknown): [string, string] | undefined {
  if (typeof value === 'number') return Number.isNaN(value) ? undefined : ['B', 'C'];
  if (typeof value === 'string') return ['C', 'D'];
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : ['I', 'J'];
  return undefined;
}

/** The keys one condition on the sort field allows; EVERY_KEY when it is not a range or an equality the keys order. */
function conditionRange(condition: unknown): KeyRange {
  const equal = scalarValue(condition) !== undefined || condition instanceof Date
    ? condition
    : isPlainObject(condition) && Object.keys(condition).length === 1 && '$eq' in condition
    ? condition.$eq
    : undefined;
  if (equal !== undefined) {
    const key = bracket(equal) && orderedKey(equal);
    return key === undefined ? EVERY_KEY : { low: key, high: `${key}\u0000`, bounded: true };
  }
  if (!isPlainObject(condition)) return EVERY_KEY;
  let range = EVERY_KEY;
  for (const [op, bound] of Object.entries(condition)) {
    const types = bracket(bound);
    const key = types && orderedKey(bound);
    if (!types || key === undefined) continue;
    let part: KeyRange | undefined;
    if (op === '$gte') part = { low: key, high: types[1], bounded: true };
    else if (op === '$gt') part = { low: `${key}\u0000`, high: types[1], bounded: true };
    else if (op === '$lte') part = { low: types[0], high: `${key}\u0000`, bounded: true };
    else if (op === '$lt') part = { low: types[0], high: key, bounded: true };
    if (part) range = intersect(range, part);
  }
  return range;
}

/** The keys outside a range: below it, and from its end up. */
export function outsideRange(range: KeyRange): [KeyRange, KeyRange] {
  return [{ low: '', high: range.low, bounded: true }, { low: range.high, high: TOP_KEY, bounded: true }];
}

function intersect(a: KeyRange, b: KeyRange): KeyRange {
  return {
    low: a.low > b.low ? a.low : b.low,
    high: a.high < b.high ? a.high : b.high,
    bounded: a.bounded || b.bounded,
  };
}

/**
 * The sort keys documents matching the filter can have: its range conditions on `field`, and an
 * `$or` each of whose branches bounds it (a page after a cursor) gives the hull of the branches.
 */
export function keyRange(parts: Filter[], field: string): KeyRange {
  let range = EVERY_KEY;
  for (const part of parts) {
    if (field in part) range = intersect(range, conditionRange(part[field]));
    if (Array.isArray(part.$or) && part.$or.length > 0) {
      const branches = part.$or.map((
        branch,
      ) => (isPlainObject(branch) ? keyRange(conjuncts(branch), field) : EVERY_KEY));
      if (branches.every((b) => b.bounded)) {
        range = intersect(range, {
          low: branches.reduce((low, b) => (b.low < low ? b.low : low), TOP_KEY),
          high: branches.reduce((high, b) => (b.high > high ? b.high : high), ''),
          bounded: true,
        });
      }
    }
  }
  return range;
}
