import { compareBson } from './bson-compare';
import type { Doc } from './document-store';
import { readPath, scalarValue } from './field-index';
import { pathValues, serializeValue, topField } from './index-keys';

/** A document's place in a list: its sort key, then its insertion position (ties keep insertion order). */
interface Entry {
  sortKey: unknown;
  order: number;
  key: string;
}

/** Where a regular document sits: the list of its leading value, and its entry there. */
interface Placement {
  lead: string;
  entry: Entry;
}

const ascending = (a: Entry, b: Entry) => compareBson(a.sortKey, b.sortKey) || a.order - b.order;

/**
 * An embedded-store index for a compound index `{leading: 1, sortField: 1, ...}`: for each value of
 * the leading field, the documents in order of the sort field, ties in insertion order. A query
 * that pins the leading field by equality and sorts on the second field (a poll claiming the next
 * due record: `{status: {$in: [...]}, dueAt: {$lte: now}}` sorted by `dueAt`) walks those lists in
 * sort order and stops once it has what it asked for, instead of sorting every candidate.
 *
 * Only documents with exactly one scalar at the leading field and one value at the sort field are
 * kept in lists; any other shape (arrays of several values, opaque shapes) is `irregular`, and
 * merged into every walk with its sort key computed then, exactly as sortDocuments would.
 * Documents with no scalar at the leading field cannot equal a scalar and are in no list.
 */
export class OrderedIndex {
  private readonly leadParts: string[];
  private readonly lists = new Map<string, Entry[]>();
  private readonly placed = new Map<string, Placement>();
  private readonly irregular = new Set<string>();

  /** The top-level fields a document's place depends on. */
  readonly reads: readonly string[];

  constructor(readonly leading: string, readonly sortField: string) {
    this.leadParts = leading.split('.');
    this.reads = [...new Set([leading, sortField].map(topField))];
  }

  /** The document stored under `key` (insertion position `order`) was written (`after`) or deleted. */
  update(key: string, order: number, after: Doc | undefined): void {
    const next = after ? this.placementOf(key, order, after) : undefined;
    const current = this.placed.get(key);
    if (current && next && next !== 'irregular' && current.lead === next.lead && compareBson(current.entry.sortKey, next.entry.sortKey) === 0) return;
    if (current) this.unplace(key, current);
    this.irregular.delete(key);
    if (next === 'irregular') this.irregular.add(key);
    else if (next) this.place(key, next);
  }

  /** Lists the walk would merge for these leading values, and how many documents they hold. */
  size(values: unknown[]): number {
    let n = this.irregular.size;
    for (const value of new Set(values.map(serializeValue))) n += this.lists.get(value)?.length ?? 0;
    return n;
  }

  /**
   * Keys of every document whose leading field may equal one of `values` (scalars), in the order
   * sortDocuments gives for `{[sortField]: direction}`: by sort key, ties in insertion order.
   */
  *walk(values: unknown[], direction: 1 | -1, docs: ReadonlyMap<string, Doc>, orderOf: (key: string) => number): Iterable<string> {
    const sources: Array<Iterator<Entry>> = [];
    for (const value of new Set(values.map(serializeValue))) {
      const list = this.lists.get(value);
      if (list?.length) sources.push(direction === 1 ? list[Symbol.iterator]() : descending(list));
    }
    if (this.irregular.size) {
      const extra: Entry[] = [];
      for (const key of this.irregular) {
        const doc = docs.get(key);
        if (!doc) continue;
        const values = pathValues(doc, this.sortField);
        let sortKey = values[0];
        for (let i = 1; i < values.length; i++) if (compareBson(values[i], sortKey) * direction < 0) sortKey = values[i];
        extra.push({ sortKey, order: orderOf(key), key });
      }
      extra.sort((a, b) => compareBson(a.sortKey, b.sortKey) * direction || a.order - b.order);
      sources.push(extra[Symbol.iterator]());
    }
    const before = (a: Entry, b: Entry) => compareBson(a.sortKey, b.sortKey) * direction || a.order - b.order;
    // A k-way merge; k is the number of leading values asked for (plus one), so a scan for the least head is enough.
    const heads = sources.map((s) => s.next());
    for (;;) {
      let least = -1;
      for (let i = 0; i < heads.length; i++) {
        if (heads[i].done) continue;
        if (least < 0 || before(heads[i].value as Entry, heads[least].value as Entry) < 0) least = i;
      }
      if (least < 0) return;
      yield (heads[least].value as Entry).key;
      heads[least] = sources[least].next();
    }
  }

  /** Whether a filter condition pins the leading field to scalars; they are returned. */
  static pinnedValues(condition: unknown): unknown[] | undefined {
    if (scalarValue(condition) !== undefined) return [condition];
    if (condition === null || typeof condition !== 'object' || Array.isArray(condition)) return undefined;
    const c = condition as Record<string, unknown>;
    if (Object.keys(c).some((op) => !op.startsWith('$'))) return undefined;
    if ('$eq' in c && scalarValue(c.$eq) !== undefined) return [c.$eq];
    if (Array.isArray(c.$in) && c.$in.every((v) => scalarValue(v) !== undefined)) return c.$in;
    return undefined;
  }

  private placementOf(key: string, order: number, doc: Doc): Placement | 'irregular' | undefined {
    const lead = readPath(doc, this.leadParts);
    if (lead.opaque || lead.keys.size > 1) return 'irregular';
    const sortValues = pathValues(doc, this.sortField);
    if (lead.keys.size === 0) return undefined;
    if (sortValues.length !== 1) return 'irregular';
    const [value] = lead.keys;
    return { lead: value, entry: { sortKey: sortValues[0], order, key } };
  }

  private place(key: string, placement: Placement): void {
    let list = this.lists.get(placement.lead);
    if (!list) this.lists.set(placement.lead, (list = []));
    list.splice(position(list, placement.entry), 0, placement.entry);
    this.placed.set(key, placement);
  }

  private unplace(key: string, placement: Placement): void {
    const list = this.lists.get(placement.lead);
    this.placed.delete(key);
    if (!list) return;
    const at = position(list, placement.entry);
    if (list[at]?.key === key) list.splice(at, 1);
    if (list.length === 0) this.lists.delete(placement.lead);
  }
}

/** Where `entry` is, or would go, in an ascending list (binary search; orders are unique). */
function position(list: Entry[], entry: Entry): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (ascending(list[mid], entry) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** An ascending list walked by sort key descending, ties still in insertion order. */
function* descending(list: Entry[]): Iterator<Entry> {
  let end = list.length;
  while (end > 0) {
    let start = end - 1;
    while (start > 0 && compareBson(list[start - 1].sortKey, list[end - 1].sortKey) === 0) start--;
    for (let i = start; i < end; i++) yield list[i];
    end = start;
  }
}
