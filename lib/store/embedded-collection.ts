import { applyUpdate, assertUpdateDocument } from './apply-update';
import { cloneDocument } from './clone-document';
import { FieldIndex, isIndexablePath, scalarValue, type Plan } from './field-index';
import { OrderedIndex } from './ordered-index';
import {
  DuplicateKeyError,
  type Doc,
  type DocumentCollection,
  type Filter,
  type FindOptions,
  type IndexSpec,
  type Projection,
  type Sort,
  type Update,
  type UpdateResult,
} from './document-store';
import { isPlainObject, serializeValue } from './index-keys';
import { idEqualities, projected, scalarEquality } from './query-shapes';
import { mingoEngine } from './mingo-engine';
import { newDocumentId } from './new-document-id';
import { compareSortKeys, sortFields, sortKeysOf, type SortFields } from './sort-documents';
import { UniqueIndex } from './unique-index';
import { upsertSeed } from './upsert-seed';
import type { JournalChange } from './sqlite-journal';

/** Where a durable collection writes each change before applying it (see durable-document-store.ts). */
export type CollectionJournal = (changes: JournalChange[]) => void;

/** One document written (`after`) or deleted (`after` undefined), under its serialized `_id`. */
interface Change {
  key: string;
  before?: Doc;
  after?: Doc;
}

interface IndexEntry {
  name: string;
  keys: string;
  unique: boolean;
  partialFilter: string;
}

/**
 * An in-memory collection with MongoDB's semantics. Every method does its work synchronously,
 * so each operation is atomic with respect to other async callers, and a write that fails
 * (duplicate key, invalid update) changes nothing: updates run on a copy that replaces the
 * stored document only after every unique index accepted it.
 *
 * Queries are answered from the `_id` map or a unique index when the filter pins them, else from
 * the field indexes (one per field path any declared index names) when the filter narrows one,
 * else by a scan; either way every candidate is tested against the whole filter, in insertion
 * order, so an index changes how fast a query runs, never what it returns.
 */
export class EmbeddedCollection implements DocumentCollection<Doc> {
  private readonly docs = new Map<string, Doc>();
  private readonly indexes: IndexEntry[] = [{ name: '_id_', keys: '{"_id":1}', unique: true, partialFilter: '' }];
  private readonly uniqueIndexes: UniqueIndex[] = [];
  private readonly fieldIndexes = new Map<string, FieldIndex>();
  /** For non-unique compound indexes: documents per value of the first field, in order of the second. */
  private readonly orderedIndexes = new Map<string, OrderedIndex>();
  /** Insertion position of each stored document: candidates from an index are visited in this order, as a scan would. */
  private readonly order = new Map<string, number>();
  private nextOrder = 0;

  /**
   * `stored`: the documents a durable collection starts with, in insertion order. `journal`: called
   * with every change after it passed every check and before it is applied, so a change that cannot
   * be made durable is not made at all.
   */
  constructor(readonly name: string, private readonly journal?: CollectionJournal, stored: Doc[] = []) {
    for (const doc of stored) {
      const key = serializeValue(doc._id);
      this.docs.set(key, doc);
      this.order.set(key, this.nextOrder++);
    }
  }

  async createIndex(spec: IndexSpec): Promise<void> {
    const fields = Object.keys(spec.keys);
    if (fields.length === 0) throw new Error('Index keys cannot be empty');
    const entry: IndexEntry = {
      name: spec.name ?? Object.entries(spec.keys).map(([field, direction]) => `${field}_${direction}`).join('_'),
      keys: JSON.stringify(spec.keys),
      unique: spec.unique ?? false,
      partialFilter: spec.partialFilter ? serializeValue(spec.partialFilter) : '',
    };
    const sameKeys = this.indexes.find((index) => index.keys === entry.keys && index.partialFilter === entry.partialFilter);
    if (sameKeys) {
      if (sameKeys.name === '_id_') return;
      if (sameKeys.name === entry.name && sameKeys.unique === entry.unique) return;
      throw new Error(`Index already exists with different options or name: ${sameKeys.name}`);
    }
    if (this.indexes.some((index) => index.name === entry.name)) {
      throw new Error(`An existing index has the same name as the requested index but different options: ${entry.name}`);
    }
    if (entry.unique) {
      const index = new UniqueIndex(entry.name, spec.keys, spec.partialFilter && cloneDocument(spec.partialFilter));
      for (const [key, doc] of this.docs) {
        for (const indexKey of index.keysOf(doc)) {
          if (index.entries.has(indexKey)) throw new DuplicateKeyError(this.name, entry.name);
          index.entries.set(indexKey, key);
        }
      }
      this.uniqueIndexes.push(index);
    }
    this.indexes.push(entry);
    for (const field of fields) {
      if (!isIndexablePath(field) || this.fieldIndexes.has(field)) continue;
      const index = new FieldIndex(field);
      for (const [key, doc] of this.docs) index.add(key, doc);
      this.fieldIndexes.set(field, index);
    }
    const [leading, second] = fields;
    const ordered = `${leading}\u0000${second}`;
    if (!entry.unique && second !== undefined && isIndexablePath(leading) && isIndexablePath(second) && !this.orderedIndexes.has(ordered)) {
      const index = new OrderedIndex(leading, second);
      for (const [key, doc] of this.docs) index.update(key, this.order.get(key)!, doc);
      this.orderedIndexes.set(ordered, index);
    }
  }

  async insertOne(doc: Doc): Promise<void> {
    if (!isPlainObject(doc)) throw new TypeError('insertOne expects a document');
    if (doc._id === undefined || Array.isArray(doc._id)) throw new TypeError('insertOne requires a non-array _id');
    const { _id, ...fields } = cloneDocument(doc);
    this.commit([{ key: serializeValue(_id), after: { _id, ...fields } }]);
  }

  async findOne(filter: Filter, options: { projection?: Projection } = {}): Promise<Doc | null> {
    const [doc] = this.match(filter, 1);
    return doc ? cloneDocument(projected(doc, options.projection)) : null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<Doc[]> {
    const skip = options.skip ?? 0;
    const limit = Math.abs(options.limit ?? 0);
    if (skip < 0) throw new Error('skip must be non-negative');
    let docs = this.match(filter, limit && skip + limit, options.sort);
    docs = docs.slice(skip, limit ? skip + limit : undefined);
    return docs.map((doc) => cloneDocument(projected(doc, options.projection)));
  }

  async countDocuments(filter: Filter): Promise<number> {
    return this.match(filter).length;
  }

  async updateOne(filter: Filter, update: Update, options: { upsert?: boolean } = {}): Promise<UpdateResult> {
    assertUpdateDocument(update);
    const [target] = this.match(filter, 1);
    if (target) return { matchedCount: 1, modifiedCount: this.updateStored([target], update) };
    if (!options.upsert) return { matchedCount: 0, modifiedCount: 0 };
    const inserted = this.upsert(filter, update);
    return { matchedCount: 0, modifiedCount: 0, upsertedId: inserted._id };
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    assertUpdateDocument(update);
    const targets = this.match(filter);
    return { matchedCount: targets.length, modifiedCount: this.updateStored(targets, update) };
  }

  async findOneAndUpdate(
    filter: Filter,
    update: Update,
    options: { returnDocument?: 'before' | 'after'; upsert?: boolean; sort?: Sort } = {},
  ): Promise<Doc | null> {
    assertUpdateDocument(update);
    const returnAfter = options.returnDocument === 'after';
    const [target] = this.match(filter, 1, options.sort);
    if (target) {
      if (returnAfter) {
        this.updateStored([target], update);
        return cloneDocument(this.docs.get(serializeValue(target._id)) as Doc);
      }
      // Copied even when replaced: the stored document shares the fields the update left alone.
      this.updateStored([target], update);
      return cloneDocument(target);
    }
    if (!options.upsert) return null;
    const inserted = this.upsert(filter, update);
    return returnAfter ? cloneDocument(inserted) : null;
  }

  async deleteOne(filter: Filter): Promise<{ deletedCount: number }> {
    return { deletedCount: this.delete(this.match(filter, 1)) };
  }

  async deleteMany(filter: Filter): Promise<{ deletedCount: number }> {
    return { deletedCount: this.delete(this.match(filter)) };
  }

  /**
   * Stored documents matching `filter`, at most `max` of them (0: all): in insertion order, or
   * with `sort` in its order, ties in insertion order (MongoDB's stable sort of a scan).
   */
  private match(filter: Filter, max = 0, sort?: Sort): Doc[] {
    const normalized = cloneDocument(filter);
    const query = mingoEngine.compileFilter(normalized);
    if (sort) return this.matchSorted(normalized, query, sortFields(sort), max);
    const found: Doc[] = [];
    for (const [, doc] of this.candidates(normalized)) {
      if (query.test(doc)) {
        found.push(doc);
        if (found.length === max) break;
      }
    }
    return found;
  }

  /**
   * The candidates are put in sort order first (their keys are cheap to compute) and tested
   * against the filter in that order, so asking for the first few (a poll claiming the next due
   * record) tests only as many as it takes instead of every candidate.
   */
  private matchSorted(filter: Filter, query: { test(doc: unknown): boolean }, fields: SortFields, max: number): Doc[] {
    const walk = max > 0 && fields.length === 1 ? this.orderedWalk(filter, fields[0][0], fields[0][1]) : undefined;
    if (walk) {
      const found: Doc[] = [];
      for (const key of walk) {
        const doc = this.docs.get(key)!;
        if (query.test(doc)) found.push(doc);
        if (found.length === max) break;
      }
      return found;
    }
    const entries: SortEntry[] = [];
    for (const [key, doc] of this.candidates(filter, false)) entries.push({ doc, keys: sortKeysOf(doc, fields), order: this.order.get(key)! });
    const before = (a: SortEntry, b: SortEntry) => compareSortKeys(a.keys, b.keys, fields) || a.order - b.order;
    if (max === 0) return entries.filter((e) => query.test(e.doc)).sort(before).map((e) => e.doc);
    const found: Doc[] = [];
    const heap = new MinHeap(entries, before);
    for (let next = heap.pop(); next && found.length < max; next = heap.pop()) {
      if (query.test(next.doc)) found.push(next.doc);
    }
    return found;
  }

  /**
   * `[stored key, document]` pairs, in insertion order unless `ordered` is false: from the `_id`
   * map or a unique index when the filter pins them, from field indexes when they narrow it, else all.
   */
  private candidates(filter: Filter, ordered = true): Iterable<[string, Doc]> {
    if ('_id' in filter) {
      const ids = idEqualities(filter._id);
      if (ids) {
        const keys = [...new Set(ids.map(serializeValue))];
        return keys.flatMap((key) => {
          const doc = this.docs.get(key);
          return doc ? [[key, doc] as [string, Doc]] : [];
        });
      }
    }
    for (const index of this.uniqueIndexes) {
      if (index.partialFilter || index.fields.some((field) => /(^|\.)\d+(\.|$)/.test(field))) continue;
      const values = index.fields.map((field) => scalarEquality(filter[field]));
      if (values.some((value) => value === undefined)) continue;
      const owner = index.entries.get(values.map(serializeValue).join(','));
      const doc = owner === undefined ? undefined : this.docs.get(owner);
      return doc ? [[owner!, doc]] : [];
    }
    const plan = this.plan(filter);
    if (plan && plan.size < this.docs.size) return ordered ? this.inInsertionOrder(plan.keys()) : this.stored(plan.keys());
    return this.docs.entries();
  }

  /**
   * Documents that may match `filter`, already in the order of a sort on `field`: from an ordered
   * index on (a field the filter pins by equality, `field`), the narrowest when several apply.
   */
  private orderedWalk(filter: Filter, field: string, direction: 1 | -1): Iterable<string> | undefined {
    let best: { index: OrderedIndex; values: unknown[]; size: number } | undefined;
    const conjuncts = [filter, ...(Array.isArray(filter.$and) ? filter.$and.filter(isPlainObject) : [])];
    for (const index of this.orderedIndexes.values()) {
      if (index.sortField !== field) continue;
      for (const conjunct of conjuncts) {
        const values = index.leading in conjunct ? OrderedIndex.pinnedValues(conjunct[index.leading]) : undefined;
        if (!values) continue;
        const size = index.size(values);
        if (!best || size < best.size) best = { index, values, size };
      }
    }
    if (!best) return undefined;
    return best.index.walk(best.values, direction, this.docs, (key) => this.order.get(key)!);
  }

  /** The smallest candidate set the indexes give for a filter (its conditions are ANDed), if any. */
  private plan(filter: Filter): Plan | undefined {
    let best: Plan | undefined;
    const consider = (plan: Plan | undefined) => {
      if (plan && (!best || plan.size < best.size)) best = plan;
    };
    for (const [field, condition] of Object.entries(filter)) {
      if (field === '$and') {
        if (Array.isArray(condition)) for (const part of condition) if (isPlainObject(part)) consider(this.plan(part));
      } else if (field === '$or') {
        if (Array.isArray(condition)) consider(this.orPlan(condition));
      } else if (field === '_id') {
        consider(this.idPlan(condition));
      } else {
        consider(this.fieldIndexes.get(field)?.plan(condition));
      }
    }
    return best;
  }

  /** A `$or` is narrowed only when every branch is. */
  private orPlan(branches: unknown[]): Plan | undefined {
    const plans: Plan[] = [];
    for (const branch of branches) {
      const plan = isPlainObject(branch) ? this.plan(branch) : undefined;
      if (!plan) return undefined;
      plans.push(plan);
    }
    return { size: plans.reduce((n, p) => n + p.size, 0), keys: () => plans.flatMap((p) => [...p.keys()]) };
  }

  private idPlan(condition: unknown): Plan | undefined {
    const ids = idEqualities(condition);
    if (!ids) return undefined;
    const keys = [...new Set(ids.map(serializeValue))].filter((key) => this.docs.has(key));
    return { size: keys.length, keys: () => keys };
  }

  private *stored(keys: Iterable<string>): Iterable<[string, Doc]> {
    const seen = new Set<string>();
    for (const key of keys) {
      const doc = this.docs.get(key);
      if (!doc || seen.has(key)) continue;
      seen.add(key);
      yield [key, doc];
    }
  }

  private inInsertionOrder(keys: Iterable<string>): Array<[string, Doc]> {
    const found: Array<[number, string, Doc]> = [];
    const seen = new Set<string>();
    for (const key of keys) {
      const doc = this.docs.get(key);
      if (!doc || seen.has(key)) continue;
      seen.add(key);
      found.push([this.order.get(key)!, key, doc]);
    }
    found.sort((a, b) => a[0] - b[0]);
    return found.map(([, key, doc]) => [key, doc]);
  }

  /** Applies `update` to copies of `targets` and stores them together; returns how many changed. */
  private updateStored(targets: Doc[], update: Update): number {
    const changes: Change[] = [];
    for (const before of targets) {
      // Shares every field with the stored document until the update replaces it (see applyUpdate).
      const after = { ...before };
      if (applyUpdate(after, update, 'update')) changes.push({ key: serializeValue(before._id), before, after });
    }
    this.commit(changes);
    return changes.length;
  }

  private upsert(filter: Filter, update: Update): Doc {
    const seed = upsertSeed(cloneDocument(filter));
    applyUpdate(seed, update, 'insert');
    const { _id = newDocumentId(), ...fields } = seed;
    if (Array.isArray(_id)) throw new Error("can't use an array for _id");
    const doc: Doc = { _id: _id as string, ...fields };
    this.commit([{ key: serializeValue(_id), after: doc }]);
    return doc;
  }

  private delete(targets: Doc[]): number {
    this.commit(targets.map((before) => ({ key: serializeValue(before._id), before })));
    return targets.length;
  }

  /** Checks every unique constraint for all changes first, then applies them all. */
  private commit(changes: Change[]): void {
    for (const change of changes) {
      if (!change.before && change.after && this.docs.has(change.key)) throw new DuplicateKeyError(this.name, '_id_');
    }
    // An update shares the fields it did not touch with the document it replaces: an index reading none of them keeps its entries.
    const added = this.uniqueIndexes.map((index) => {
      const moving = index.reads ? changes.filter((change) => !keeps(change, index.reads!)) : changes;
      const movingKeys = new Set(moving.map((change) => change.key));
      const claimed = new Map<string, string>();
      for (const change of moving) {
        if (!change.after) continue;
        for (const indexKey of index.keysOf(change.after)) {
          const owner = index.entries.get(indexKey);
          const claimant = claimed.get(indexKey);
          if ((owner !== undefined && !movingKeys.has(owner)) || (claimant !== undefined && claimant !== change.key)) {
            throw new DuplicateKeyError(this.name, index.name);
          }
          claimed.set(indexKey, change.key);
        }
      }
      return { moving, claimed };
    });
    if (changes.length) this.journal?.(changes.map(({ key, after }) => ({ key, after })));
    this.uniqueIndexes.forEach((index, i) => {
      for (const change of added[i].moving) {
        if (!change.before) continue;
        for (const indexKey of index.keysOf(change.before)) {
          if (index.entries.get(indexKey) === change.key) index.entries.delete(indexKey);
        }
      }
    });
    this.uniqueIndexes.forEach((index, i) => {
      for (const [indexKey, key] of added[i].claimed) index.entries.set(indexKey, key);
    });
    for (const change of changes) {
      if (change.after && !this.docs.has(change.key)) this.order.set(change.key, this.nextOrder++);
      for (const index of this.fieldIndexes.values()) if (!keeps(change, index.reads)) index.update(change.key, change.before, change.after);
      const order = this.order.get(change.key)!;
      for (const index of this.orderedIndexes.values()) if (!keeps(change, index.reads)) index.update(change.key, order, change.after);
      if (change.after) {
        this.docs.set(change.key, change.after);
      } else {
        this.docs.delete(change.key);
        this.order.delete(change.key);
      }
    }
  }
}

/** Whether `change` updated a document and left each of the top-level `fields` the very value it was. */
function keeps(change: Change, fields: readonly string[]): boolean {
  const { before, after } = change;
  return !!before && !!after && fields.every((field) => before[field] === after[field]);
}

interface SortEntry {
  doc: Doc;
  keys: unknown[];
  order: number;
}

/** A binary min-heap: the entries come out in `before` order, each pop costing O(log n). */
class MinHeap<T> {
  private readonly items: T[];

  constructor(items: T[], private readonly before: (a: T, b: T) => number) {
    this.items = items;
    for (let i = (items.length >> 1) - 1; i >= 0; i--) this.down(i);
  }

  pop(): T | undefined {
    const items = this.items;
    if (items.length === 0) return undefined;
    const top = items[0];
    const last = items.pop()!;
    if (items.length > 0) {
      items[0] = last;
      this.down(0);
    }
    return top;
  }

  private down(i: number): void {
    const items = this.items;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let least = i;
      if (left < items.length && this.before(items[left], items[least]) < 0) least = left;
      if (right < items.length && this.before(items[right], items[least]) < 0) least = right;
      if (least === i) return;
      [items[i], items[least]] = [items[least], items[i]];
      i = least;
    }
  }
}

