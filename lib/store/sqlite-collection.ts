import type Database from 'better-sqlite3';
import { applyUpdate, assertUpdateDocument } from './apply-update';
import { cloneDocument } from './clone-document';
import type { ColdBodies } from './cold-bodies';
import type { DocumentCache } from './document-cache';
import {
  DuplicateKeyError,
  type Doc,
  type DocumentCollection,
  type ExplainOptions,
  type Filter,
  type FindOptions,
  type IndexSpec,
  type Projection,
  type QueryPlan,
  type Sort,
  type Update,
  type UpdateResult,
} from './document-store';
import { isIndexablePath, readPath, scalarValue } from './field-index';
import type { GroupCommit } from './group-commit';
import { isPlainObject, serializeValue } from './index-keys';
import { idEqualities, projected, scalarEquality } from './query-shapes';
import { mingoEngine } from './mingo-engine';
import { newDocumentId } from './new-document-id';
import { compareSortKeys, sortFields, sortKeysOf, type SortFields } from './sort-documents';
import {
  conjuncts,
  implies,
  IRREGULAR_LEAD,
  MULTIKEY_LEAD,
  keyRange,
  outsideRange,
  pinnedLeads,
  sortIndexOf,
  sortPlaces,
  type SortPlace,
  type KeyRange,
  type SortIndex,
} from './sort-index';
import { notifyPlan, planListeners } from './query-plan-listeners';
import type { SortCounts } from './sort-counts';
import { decodeDocument, encodeDocument, type Statements, type StoredDoc } from './sqlite-statements';
import { UniqueIndex } from './unique-index';
import { upsertSeed } from './upsert-seed';

/** What a collection shares with the others of its store file. */
export interface SqliteContext {
  db: Database.Database;
  statements: Statements;
  cache: DocumentCache;
  writes: GroupCommit;
  sortCounts: SortCounts;
  coldBodies: ColdBodies;
}

interface IndexEntry {
  name: string;
  keys: string;
  unique: boolean;
  partialFilter: string;
  partialSpec?: Filter;
}

/** One document written (`after`) or deleted (`after` undefined); `seq` is its row (absent for an insert). */
interface Change {
  key: string;
  seq?: number;
  before?: Doc;
  after?: Doc;
}

/** A change's index entries to add, on row `seq`: all of them, or only those of the indexes in `only`. */
interface EntryWrite extends Omit<Change, 'seq'> {
  seq: number;
  only?: Declared;
}

/** A plan chosen for explain: the fields it does not serve are the filtered ones. */
type PlanChoice = Omit<QueryPlan, 'filtered'>;

/** Field-index entries that are not values: the document holds the path / holds a shape the index does not model. */
const PRESENT = '#P';
const OPAQUE = '#O';
/** Counting a field's entries further than this does not change which plan is the narrowest. */
const SIZE_CAP = 2_000;

/**
 * A collection of the SQLite engine: documents live in the store file (table `documents`, BSON),
 * found through index entries kept in the same file and in the same transaction as the documents:
 * `field_entries` (which documents hold which scalar at each path a declared index names),
 * `unique_entries` (enforced by SQLite's primary key) and `sort_entries` (per compound index, the
 * documents of each leading value in order of the second field). Only a bounded cache of decoded
 * documents stays in memory. Every candidate is tested against the whole filter (mingo), so the
 * entries change how fast a query runs, never what it returns; the semantics are MongoDB's, checked
 * by the port's contract suite (document-store.contract.ts, also run against MongoDB).
 */
export class SqliteCollection implements DocumentCollection<Doc> {
  private readonly indexes: IndexEntry[] = [{ name: '_id_', keys: '{"_id":1}', unique: true, partialFilter: '' }];
  private readonly uniqueIndexes: UniqueIndex[] = [];
  private readonly fieldPaths = new Map<string, string[]>();
  private readonly sortIndexes: SortIndex[] = [];
  private readonly s: Statements;
  private readonly sortCounts: SortCounts;

  constructor(readonly name: string, private readonly context: SqliteContext) {
    this.s = context.statements;
    this.sortCounts = context.sortCounts;
    for (const row of this.s.indexes.all(name) as Array<{ spec: string }>) {
      this.declare(JSON.parse(row.spec) as IndexSpec);
    }
    this.buildPendingSortEntries();
  }

  /**
   * Builds the sort entries a format upgrade left to build (table `sort_builds`, store format 4, sqlite-schema.ts): one
   * pass over the collection.
   */
  private buildPendingSortEntries(): void {
    const pending = new Set(this.s.pendingSortBuilds.all(this.name) as string[]);
    const sort = this.sortIndexes.filter((index) => pending.has(index.id));
    if (pending.size === 0) return;
    this.context.writes.flush();
    this.context.db.transaction(() => {
      if (sort.length) {
        const only: Declared = { unique: [], fields: new Map(), sort };
        for (let after = 0, page = this.scanPage(after); page.length; page = this.scanPage(after)) {
          for (const row of page) {
            const doc = decodeDocument(row.body);
            this.writeEntries({ seq: row.seq, key: serializeValue(doc._id), after: doc, only });
          }
          after = page[page.length - 1].seq;
        }
        this.sortCounts.kept();
        this.sortCounts.write();
      }
      for (const id of pending) this.s.doneSortBuild.run(this.name, id);
    }).immediate();
  }

  async createIndex(spec: IndexSpec): Promise<void> {
    const fields = Object.keys(spec.keys);
    if (fields.length === 0) throw new Error('Index keys cannot be empty');
    const entry = indexEntry(spec);
    const sameKeys = this.indexes.find((index) =>
      index.keys === entry.keys && index.partialFilter === entry.partialFilter
    );
    if (sameKeys) {
      if (sameKeys.name === '_id_') return;
      if (sameKeys.name === entry.name && sameKeys.unique === entry.unique) return;
      throw new Error(`Index already exists with different options or name: ${sameKeys.name}`);
    }
    if (this.indexes.some((index) => index.name === entry.name)) {
      throw new Error(
        `An existing index has the same name as the requested index but different options: ${entry.name}`,
      );
    }
    // A schema change commits on its own: the writes of the open group first, then the entries of every stored
    // document.
    this.context.writes.flush();
    const stored = { ...spec, ...(spec.partialFilter ? { partialFilter: cloneDocument(spec.partialFilter) } : {}) };
    const build = this.context.db.transaction(() => {
      this.s.addIndex.run(this.name, entry.name, JSON.stringify(stored));
      const added = this.declare(stored);
      // In pages: SQLite cannot write while a statement is still reading.
      for (let after = 0, page = this.scanPage(after); page.length; page = this.scanPage(after)) {
        for (const row of page) {
          const doc = decodeDocument(row.body);
          this.writeEntries({ seq: row.seq, key: serializeValue(doc._id), after: doc, only: added });
        }
        after = page[page.length - 1].seq;
      }
      this.sortCounts.kept();
      this.sortCounts.write();
    });
    try {
      build.immediate();
    } catch (err) {
      this.undeclare(entry.name);
      throw err;
    }
  }

  private scanPage(after: number): Array<{ seq: number; body: Buffer }> {
    return this.s.scanPage.all(this.name, after) as Array<{ seq: number; body: Buffer }>;
  }

  async insertOne(doc: Doc): Promise<void> {
    if (!isPlainObject(doc)) throw new TypeError('insertOne expects a document');
    if (doc._id === undefined || Array.isArray(doc._id)) throw new TypeError('insertOne requires a non-array _id');
    const { _id, ...fields } = cloneDocument(doc);
    await this.commit([{ key: serializeValue(_id), after: { _id, ...fields } }]);
  }

  async findOne(filter: Filter, options: { projection?: Projection } = {}): Promise<Doc | null> {
    const [found] = this.match(filter, 1);
    return found ? cloneDocument(projected(found.doc, options.projection)) : null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<Doc[]> {
    if (planListeners.size) notifyPlan(this.name, 'find', filter, () => this.explainNow(filter, options));
    const skip = options.skip ?? 0;
    const limit = Math.abs(options.limit ?? 0);
    if (skip < 0) throw new Error('skip must be non-negative');
    const found = this.match(filter, limit && skip + limit, options.sort).slice(skip, limit ? skip + limit : undefined);
    return found.map(({ doc }) => cloneDocument(projected(doc, options.projection)));
  }

  async countDocuments(filter: Filter): Promise<number> {
    if (planListeners.size) notifyPlan(this.name, 'count', filter, () => this.explainNow(filter, { count: true }));
    if (Object.keys(filter).length === 0) return this.s.count.get(this.name) as number;
    return this.indexCount(filter)?.count() ?? this.match(filter).length;
  }

  async explain(filter: Filter, options: ExplainOptions = {}): Promise<QueryPlan> {
    return this.explainNow(filter, options);
  }

  private explainNow(filter: Filter, options: ExplainOptions): QueryPlan {
    const normalized = cloneDocument(filter);
    const names = filterNames(conjuncts(normalized));
    const plan = ({ source, index, served, sorted, countedFromIndex }: PlanChoice): QueryPlan => ({
      source,
      ...(index ? { index } : {}),
      sorted,
      served,
      filtered: names.filter((name) => !served.includes(name)),
      ...(options.count ? { countedFromIndex: countedFromIndex ?? false } : {}),
    });
    if (options.count) {
      const counted = (index: string, served: string[]) =>
        plan({ source: 'index', index, served, sorted: false, countedFromIndex: true });
      if (names.length === 0) return counted('_id_', []);
      const indexed = this.indexCount(normalized);
      if (indexed) return counted(indexed.index, names);
    }
    const limit = Math.abs(options.limit ?? 0);
    const walk = options.sort && !options.count && limit > 0
      ? this.walkPlan(normalized, sortFields(options.sort))
      : undefined;
    if (walk) return plan({ source: 'index', index: walk.index.name, served: walk.served, sorted: true });
    if ('_id' in normalized && idEqualities(normalized._id)) {
      return plan({ source: 'id', index: '_id_', served: ['_id'], sorted: false });
    }
    const unique = this.uniqueIndexes.find((index) =>
      !index.partialFilter && index.fields.every((field) => scalarEquality(normalized[field]) !== undefined)
    );
    if (unique) return plan({ source: 'unique', index: unique.name, served: [...unique.fields], sorted: false });
    const entries = this.plan(normalized);
    return entries
      ? plan({ source: 'index', index: `fields:${entries.serves.join(',')}`, served: entries.serves, sorted: false })
      : plan({ source: 'scan', served: [], sorted: false });
  }

  /**
   * A count answered from index entries alone (else undefined): one sort index's entries within a range, or the
   * field entries holding every value; a filter with one `$or` of two branches is counted as the sum of its branches'
   * counts less the count of both, each of them answered so.
   */
  private indexCount(filter: Filter): IndexCount | undefined {
    const either = orBranches(filter);
    if (!either) return this.conjunctionCount(filter);
    const counts = [[either.branches[0]], [either.branches[1]], either.branches].map((added) =>
      this.conjunctionCount({ $and: [...either.rest, ...added] })
    );
    if (counts.some((count) => count === undefined)) return undefined;
    const [a, b, both] = counts as IndexCount[];
    return { index: `$or(${a.index}|${b.index})`, count: () => a.count() + b.count() - both.count() };
  }

  private conjunctionCount(filter: Filter): IndexCount | undefined {
    const sorted = this.sortCount(filter);
    if (sorted) {
      // Every entry of those leading values: their running counts, whatever their number; else the entries in range.
      const all = () => this.sortCounts.count(this.name, sorted.index.id, sorted.leads);
      const leads = JSON.stringify(sorted.leads);
      return {
        index: sorted.index.name,
        count: () => (sorted.range.bounded ? this.rangeCount(sorted.index, leads, sorted.range, all()) : all()),
      };
    }
    const counted = this.countFromEntries(filter);
    return counted === undefined ? undefined : { index: 'fields', count: () => counted };
  }

  /**
   * The entries of these leading values (`total` of them) within a range: the range or the keys outside it, whichever
   * holds fewer, is counted. Each is counted in turn up to a cap that grows, so a range holding nearly every entry
   * reads few of them.
   */
  private rangeCount(index: SortIndex, leads: string, range: KeyRange, total: number): number {
    const upTo = (part: KeyRange, cap: number) =>
      this.s.sortCount.get(this.name, index.id, leads, part.low, part.high, cap) as number;
    const [below, above] = outsideRange(range);
    for (let cap = Math.ceil(total / 8) + 1;; cap = total + 1) {
      const inside = upTo(range, cap);
      if (inside < cap) return inside;
      const under = upTo(below, cap);
      const outside = under < cap ? under + upTo(above, cap - under) : cap;
      if (outside < cap) return total - outside;
    }
  }

  /**
   * A count answered from one sort index's entries: every condition of the filter is an equality
   * pinning one of its leading fields (all of them pinned) or a range of its sort field, and no
   * document of those leading values has a shape the entries do not order. Else undefined.
   */
  private sortCount(filter: Filter): { index: SortIndex; leads: string[]; range: KeyRange } | undefined {
    const parts = conjuncts(filter);
    for (const index of this.sortIndexes) {
      if (!implies(parts, index)) continue;
      const exact = parts.every((part) =>
        Object.entries(part).every(([field, condition]) =>
          field === '$and'
          || (field in (index.partial?.filter ?? {})
            && serializeValue(condition) === serializeValue(index.partial!.filter[field]))
          || (index.leading.includes(field) && pinnedLeads([part], { ...index, leading: [field] }) !== undefined)
          || (field === index.sortField && isRangeCondition(condition))
        )
      );
      if (!exact) continue;
      const leads = pinnedLeads(parts, index);
      if (!leads || !this.ordersLeads(index, leads)) continue;
      return { index, leads, range: keyRange(parts, index.sortField) };
    }
    return undefined;
  }

  async updateOne(filter: Filter, update: Update, options: { upsert?: boolean } = {}): Promise<UpdateResult> {
    assertUpdateDocument(update);
    const [target] = this.match(filter, 1);
    if (target) return { matchedCount: 1, modifiedCount: await this.updateStored([target], update) };
    if (!options.upsert) return { matchedCount: 0, modifiedCount: 0 };
    const inserted = await this.upsert(filter, update);
    return { matchedCount: 0, modifiedCount: 0, upsertedId: inserted._id };
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    assertUpdateDocument(update);
    const targets = this.match(filter);
    return { matchedCount: targets.length, modifiedCount: await this.updateStored(targets, update) };
  }

  async findOneAndUpdate(
    filter: Filter,
    update: Update,
    options: { returnDocument?: 'before' | 'after'; upsert?: boolean; sort?: Sort } = {},
  ): Promise<Doc | null> {
    assertUpdateDocument(update);
    const [target] = this.match(filter, 1, options.sort);
    if (target) {
      const changes = this.updatedChanges([target], update);
      await this.commit(changes);
      return cloneDocument(options.returnDocument === 'after' ? (changes[0]?.after ?? target.doc) : target.doc);
    }
    if (!options.upsert) return null;
    const inserted = await this.upsert(filter, update);
    return options.returnDocument === 'after' ? cloneDocument(inserted) : null;
  }

  async deleteOne(filter: Filter): Promise<{ deletedCount: number }> {
    return { deletedCount: await this.delete(this.match(filter, 1)) };
  }

  async deleteMany(filter: Filter): Promise<{ deletedCount: number }> {
    return { deletedCount: await this.delete(this.match(filter)) };
  }

  // ---- reading ----

  /**
   * A count answered from the field entries alone, when the filter is a conjunction of equalities to
   * scalars on indexed paths where no document has a shape the entries do not model: the documents
   * holding every value (a multikey entry matches as MongoDB's equality does). Else undefined.
   */
  private countFromEntries(filter: Filter): number | undefined {
    const conditions: Array<[string, string]> = [];
    for (const part of conjuncts(filter)) {
      for (const [field, condition] of Object.entries(part)) {
        if (field === '$and' && Array.isArray(condition) && condition.every(isPlainObject)) continue;
        const entry = this.fieldPaths.has(field) ? entryOf(condition) : undefined;
        if (!entry) return undefined;
        conditions.push([field, entry]);
      }
    }
    const set = [...new Map(conditions.map((c) => [JSON.stringify(c), c])).values()];
    if (set.length === 0 || set.length > this.s.countMatching.length) return undefined;
    if (set.some(([path]) => this.s.hasValue.get(this.name, path, OPAQUE) !== undefined)) return undefined;
    return this.countAll(set);
  }

  /**
   * Documents holding every one of these field entries; the rarest drives the count, the others are checked for its
   * documents.
   */
  private countAll(conditions: Array<[string, string]>): number {
    const sized = conditions.map((c) => ({ c, size: this.s.fieldSize.get(this.name, c[0], c[1], SIZE_CAP) as number }))
      .sort((a, b) => a.size - b.size);
    const [[path, value], ...others] = sized.map(({ c }) => c);
    return this.s.countMatching[others.length].get(this.name, path, value, ...others.flat()) as number;
  }

  /**
   * Stored documents matching `filter`, at most `max` of them (0: all): in insertion order, or
   * with `sort` in its order, ties in insertion order (MongoDB's stable sort of a scan).
   */
  private match(filter: Filter, max = 0, sort?: Sort): StoredDoc[] {
    const normalized = cloneDocument(filter);
    const query = mingoEngine.compileFilter(normalized);
    if (sort) return this.matchSorted(normalized, query, sortFields(sort), max);
    const found: StoredDoc[] = [];
    for (const stored of this.candidates(normalized)) {
      if (query.test(stored.doc)) {
        found.push(stored);
        if (found.length === max) break;
      }
    }
    return found;
  }

  private matchSorted(
    filter: Filter,
    query: { test(doc: unknown): boolean },
    fields: SortFields,
    max: number,
  ): StoredDoc[] {
    const walk = max > 0 ? this.walkPlan(filter, fields) : undefined;
    const found: StoredDoc[] = [];
    if (walk) {
      for (const stored of this.walk(walk, fields)) {
        if (!query.test(stored.doc)) continue;
        found.push(stored);
        if (found.length === max) break;
      }
      return found;
    }
    const entries = [...this.candidates(filter)].filter((stored) => query.test(stored.doc)).map((stored) => ({
      stored,
      keys: sortKeysOf(stored.doc, fields),
    }));
    entries.sort((a, b) => compareSortKeys(a.keys, b.keys, fields) || a.stored.seq - b.stored.seq);
    return (max ? entries.slice(0, max) : entries).map((entry) => entry.stored);
  }

  /**
   * The walk of sort entries a sorted, limited query takes, if one pays off: the narrowest of the
   * walks whose leading fields the filter pins, unless it leaves conditions to test and the field
   * entries (or a pinned key) narrow the filter to fewer documents, which are then sorted in memory.
   */
  private walkPlan(filter: Filter, fields: SortFields): Walk | undefined {
    if (this.pinsKey(filter)) return undefined;
    const walk = this.narrowestWalk(filter, fields);
    if (!walk || walk.exact) return walk;
    const narrow = this.plan(filter);
    const size = narrow?.sizeUpTo(SIZE_CAP);
    // Equal sizes: a few documents sorted in memory, the filter answered, rather than a walk testing it.
    return size !== undefined && size < SIZE_CAP && (size < walk.size || (size === walk.size && size < FIRST_COUNT))
      ? undefined
      : walk;
  }

  /** Whether the filter pins `_id` or a unique key: a lookup finds its few documents. */
  private pinsKey(filter: Filter): boolean {
    if ('_id' in filter && idEqualities(filter._id)) return true;
    return this.uniqueIndexes.some((index) =>
      !index.partialFilter && index.fields.every((field) => scalarEquality(filter[field]) !== undefined)
    );
  }

  /**
   * Of the sort indexes on the first sort field whose leading fields the filter pins by equality,
   * the one with the fewest entries within the filter's range of that field (counted up to
   * SIZE_CAP; on a tie, the one answering more of the filter). Undefined when none applies or a
   * document of those leading values has a shape the entries do not order.
   */
  private narrowestWalk(filter: Filter, fields: SortFields): Walk | undefined {
    const [field, direction] = fields[0];
    const parts = conjuncts(filter);
    let best: Walk | undefined;
    for (const index of this.sortIndexes) {
      if (index.sortField !== field || !implies(parts, index)) continue;
      const leads = pinnedLeads(parts, index);
      if (!leads || !this.ordersLeads(index, leads)) continue;
      const range = keyRange(parts, field);
      const size = this.s.sortCount.get(
        this.name,
        index.id,
        JSON.stringify(leads),
        range.low,
        range.high,
        SIZE_CAP,
      ) as number;
      const served = servedByWalk(parts, index, range);
      if (best && (size > best.size || (size === best.size && served.length <= best.served.length))) continue;
      best = {
        index,
        leads,
        range,
        direction,
        size,
        served,
        exact: filterNames(parts).every((name) => served.includes(name)),
      };
    }
    return best;
  }

  /** Whether a document under this leading value (or IRREGULAR_LEAD) has a sort field the entries do not order. */
  private irregularSort(index: SortIndex, lead: string): boolean {
    return this.s.sortIrregular.get(this.name, index.id, lead) !== undefined;
  }

  /**
   * Whether the entries under these leading values are every matching document once, in order: no document is
   * irregular (under IRREGULAR_LEAD, or with a sort field the entries do not order), and a walk over several leading
   * values cannot meet a document twice (none has several places: MULTIKEY_LEAD).
   */
  private ordersLeads(index: SortIndex, leads: string[]): boolean {
    if (this.irregularSort(index, IRREGULAR_LEAD) || leads.some((lead) => this.irregularSort(index, lead))) {
      return false;
    }
    return leads.length === 1 || !this.irregularSort(index, MULTIKEY_LEAD);
  }

  /**
   * Documents that may match, already in the order of `fields`, from the sort entries of the walk's
   * leading values within its key range. Entries come in order of the sort field; each run of equal
   * keys is put in the full sort order (further fields, then insertion) before it is handed out.
   */
  private *walk(plan: Walk, fields: SortFields): Iterable<StoredDoc> {
    const { index, leads, range, direction } = plan;
    const rows = (leads.length === 1
      ? (direction === 1 ? this.s.sortAscending : this.s.sortDescending).iterate(
        this.name,
        index.id,
        leads[0],
        range.low,
        range.high,
      )
      : (direction === 1 ? this.s.sortManyAscending : this.s.sortManyDescending).iterate(
        this.name,
        index.id,
        JSON.stringify(leads),
        range.low,
        range.high,
      )) as IterableIterator<{ seq: number; sortKey: string }>;
    let run: StoredDoc[] = [];
    let runKey: string | undefined;
    const ordered = (docs: StoredDoc[]) => {
      if (docs.length < 2) return docs;
      const keyed = docs.map((stored) => ({ stored, keys: sortKeysOf(stored.doc, fields) }));
      keyed.sort((a, b) => compareSortKeys(a.keys, b.keys, fields) || a.stored.seq - b.stored.seq);
      return keyed.map((entry) => entry.stored);
    };
    for (const row of rows) {
      if (row.sortKey !== runKey && run.length) {
        yield* ordered(run);
        run = [];
      }
      runKey = row.sortKey;
      const stored = this.load(row.seq);
      if (stored) run.push(stored);
    }
    yield* ordered(run);
  }

  /** Candidates in insertion order: by `_id`, by a pinned unique key, by field entries, else every document. */
  private *candidates(filter: Filter): Iterable<StoredDoc> {
    const ids = '_id' in filter ? idEqualities(filter._id) : undefined;
    if (ids) {
      yield* this.byKeys([...new Set(ids.map(serializeValue))]);
      return;
    }
    for (const index of this.uniqueIndexes) {
      // Each field pinned to a scalar: a partial index that only asks for its fields holds the document too.
      if (!index.holdsEveryKeyed || index.fields.some((field) => /(^|\.)\d+(\.|$)/.test(field))) continue;
      const values = index.fields.map((field) => scalarEquality(filter[field]));
      if (values.some((value) => value === undefined)) continue;
      const owner = this.s.uniqueOwner.get(this.name, index.name, values.map(serializeValue).join(',')) as
        | string
        | undefined;
      if (owner !== undefined) yield* this.byKeys([owner]);
      return;
    }
    const plan = this.plan(filter);
    if (plan) {
      yield* this.bySeqs(plan.seqs());
      return;
    }
    for (const row of this.s.scan.iterate(this.name) as Iterable<{ seq: number; key: string; body: Buffer }>) {
      yield this.context.cache.get(this.name, row.seq)
        ?? this.remember({ seq: row.seq, key: row.key, doc: decodeDocument(row.body) });
    }
  }

  private byKeys(keys: string[]): StoredDoc[] {
    const found: StoredDoc[] = [];
    for (const key of keys) {
      const cached = this.context.cache.getByKey(this.name, key);
      if (cached) {
        found.push(cached);
        continue;
      }
      const row = this.s.byKey.get(this.name, key) as { seq: number; body: Buffer } | undefined;
      if (row) {
        found.push(
          this.context.cache.get(this.name, row.seq)
            ?? this.remember({ seq: row.seq, key, doc: decodeDocument(row.body) }),
        );
      }
    }
    return found.sort((a, b) => a.seq - b.seq);
  }

  private *bySeqs(seqs: Iterable<number>): Iterable<StoredDoc> {
    for (const seq of seqs) {
      const stored = this.load(seq);
      if (stored) yield stored;
    }
  }

  private load(seq: number): StoredDoc | undefined {
    const cached = this.context.cache.get(this.name, seq);
    if (cached) return cached;
    const row = this.s.bySeq.get(seq, this.name) as { key: string; body: Buffer } | undefined;
    return row && this.remember({ seq, key: row.key, doc: decodeDocument(row.body) });
  }

  private remember(stored: StoredDoc): StoredDoc {
    this.context.cache.set(this.name, stored);
    return stored;
  }

  /** The narrowest candidate set the field entries give for a filter (its conditions are ANDed), if any. */
  private plan(filter: Filter, whole = true): SeqPlan | undefined {
    const plans: SeqPlan[] = [];
    const consider = (plan: SeqPlan | undefined) => {
      if (plan) plans.push(plan);
    };
    if (whole) for (const plan of this.rangePlans(filter)) consider(plan);
    for (const [field, condition] of Object.entries(filter)) {
      if (field === '$and') {
        if (Array.isArray(condition)) {
          for (const part of condition) if (isPlainObject(part)) consider(this.plan(part, false));
        }
      } else if (field === '$or') {
        if (Array.isArray(condition)) consider(this.orPlan(condition));
      } else if (field !== '_id' && this.fieldPaths.has(field)) {
        consider(this.fieldPlan(field, condition));
      } else if (
        isPlainObject(condition) && isPlainObject(condition.$elemMatch) && Object.keys(condition).length === 1
      ) {
        // An element matching {sub: c} holds `field.sub` matching c: the entries of that path narrow it.
        for (const [sub, inner] of Object.entries(condition.$elemMatch)) {
          if (!sub.startsWith('$') && this.fieldPaths.has(`${field}.${sub}`)) {
            consider(this.fieldPlan(`${field}.${sub}`, inner));
          }
        }
      }
    }
    return narrowest(plans);
  }

  /**
   * Candidates from sort entries within a range of their sort field (whatever the query's order):
   * for each sort index whose leading fields the filter pins and whose sort field it bounds.
   */
  private rangePlans(filter: Filter): SeqPlan[] {
    const parts = conjuncts(filter);
    const plans: SeqPlan[] = [];
    for (const index of this.sortIndexes) {
      const leads = implies(parts, index) ? pinnedLeads(parts, index) : undefined;
      const range = leads && keyRange(parts, index.sortField);
      if (!leads || !range?.bounded || !this.ordersLeads(index, leads)) continue;
      const json = JSON.stringify(leads);
      plans.push(seqPlan(
        servedByWalk(parts, index, range),
        (cap) => this.s.sortCount.get(this.name, index.id, json, range.low, range.high, cap) as number,
        () =>
          (this.s.sortManyAscending.all(this.name, index.id, json, range.low, range.high) as Array<{ seq: number }>)
            .map((row) => row.seq).sort((a, b) => a - b),
      ));
    }
    return plans;
  }

  private orPlan(branches: unknown[]): SeqPlan | undefined {
    const plans: SeqPlan[] = [];
    for (const branch of branches) {
      const plan = isPlainObject(branch) ? this.plan(branch) : undefined;
      if (!plan) return undefined;
      plans.push(plan);
    }
    return seqPlan(
      [orName(branches)],
      (cap) => plans.reduce((n, p) => n + p.sizeUpTo(cap), 0),
      () => sortedUnion(plans.map((p) => p.seqs())),
    );
  }

  /** As FieldIndex.plan: equality to scalars, or the conditions that need the field present. */
  private fieldPlan(path: string, condition: unknown): SeqPlan | undefined {
    const direct = scalarValue(condition);
    if (direct !== undefined) return this.valuesPlan(path, [direct]);
    if (!isPlainObject(condition)) return undefined;
    const operators = Object.keys(condition);
    if (operators.length === 0 || operators.some((op) => !op.startsWith('$'))) return undefined;
    if ('$eq' in condition && scalarValue(condition.$eq) !== undefined) return this.valuesPlan(path, [condition.$eq]);
    if (Array.isArray(condition.$in) && condition.$in.every((v) => scalarValue(v) !== undefined)) {
      return this.valuesPlan(path, condition.$in);
    }
    const range = ['$lt', '$lte', '$gt', '$gte'].some((op) => op in condition && isRangeBound(condition[op]));
    if (range || condition.$exists === true) return this.entriesPlan(path, [PRESENT, OPAQUE]);
    return undefined;
  }

  private valuesPlan(path: string, values: unknown[]): SeqPlan {
    return this.entriesPlan(path, [...new Set(values.map(serializeValue)), OPAQUE]);
  }

  private entriesPlan(path: string, values: string[]): SeqPlan {
    return seqPlan(
      [path],
      (cap) => values.reduce((n, value) => n + (this.s.fieldSize.get(this.name, path, value, cap) as number), 0),
      () => {
        const seqs = new Set<number>();
        for (const value of values) {
          for (const seq of this.s.fieldSeqs.all(this.name, path, value) as number[]) seqs.add(seq);
        }
        return [...seqs].sort((a, b) => a - b);
      },
    );
  }

  // ---- writing ----

  private updatedChanges(targets: StoredDoc[], update: Update): Change[] {
    const changes: Change[] = [];
    for (const { seq, key, doc: before } of targets) {
      // Shares every field with the stored document until the update replaces it (see applyUpdate).
      const after = { ...before };
      if (applyUpdate(after, update, 'update')) changes.push({ key, seq, before, after });
    }
    return changes;
  }

  private async updateStored(targets: StoredDoc[], update: Update): Promise<number> {
    const changes = this.updatedChanges(targets, update);
    await this.commit(changes);
    return changes.length;
  }

  private async upsert(filter: Filter, update: Update): Promise<Doc> {
    const seed = upsertSeed(cloneDocument(filter));
    applyUpdate(seed, update, 'insert');
    const { _id = newDocumentId(), ...fields } = seed;
    if (Array.isArray(_id)) throw new Error("can't use an array for _id");
    const doc: Doc = { _id: _id as string, ...fields };
    await this.commit([{ key: serializeValue(_id), after: doc }]);
    return doc;
  }

  private async delete(targets: StoredDoc[]): Promise<number> {
    await this.commit(targets.map(({ seq, key, doc }) => ({ key, seq, before: doc })));
    return targets.length;
  }

  /**
   * Writes the changes of one operation in one savepoint of the open group transaction: documents,
   * then index entries (old ones out before new ones in, so documents may swap unique keys);
   * SQLite refuses a duplicate unique key and the whole operation is undone. Acknowledged after COMMIT.
   */
  private commit(changes: Change[]): Promise<void> {
    if (changes.length === 0) return Promise.resolve();
    const { cache, coldBodies } = this.context;
    return this.context.writes.run(() => {
      try {
        return this.writeChanges(changes);
      } catch (err) {
        this.sortCounts.discard();
        throw err;
      }
    }, ({ seqs, bytes }) => {
      changes.forEach((change, i) => {
        if (change.after) {
          cache.set(this.name, { seq: seqs[i], key: change.key, doc: change.after });
          coldBodies.written(seqs[i], bytes[i]);
        } else {
          cache.delete(this.name, seqs[i]);
          coldBodies.deleted(seqs[i]);
        }
      });
    }).then(() => undefined);
  }

  /** The rows, then their index entries; answers each change's row and the length of the body written (0: deleted). */
  private writeChanges(changes: Change[]): { seqs: number[]; bytes: number[] } {
    const seqs: number[] = [];
    const bytes: number[] = [];
    for (const change of changes) {
      const body = change.after && encodeDocument(change.after);
      bytes.push(body?.length ?? 0);
      if (body && change.seq === undefined) {
        seqs.push(this.insertRow(change.key, body));
      } else if (body) {
        this.s.replace.run(body, change.seq);
        seqs.push(change.seq!);
      } else {
        this.s.remove.run(change.seq);
        seqs.push(change.seq!);
      }
    }
    changes.forEach((change, i) => this.removeEntries(seqs[i], change));
    changes.forEach((change, i) => this.writeEntries({ ...change, seq: seqs[i] }));
    this.sortCounts.kept();
    return { seqs, bytes };
  }

  private insertRow(key: string, body: Uint8Array): number {
    try {
      return Number(this.s.insert.run(this.name, key, body).lastInsertRowid);
    } catch (err) {
      throw isConstraint(err) ? new DuplicateKeyError(this.name, '_id_', { cause: err }) : err;
    }
  }

  /** Takes out the entries of `before` that `after` does not have (all of them for a delete). */
  private removeEntries(seq: number, change: Change): void {
    const { before, after } = change;
    if (!before) return;
    for (const index of this.uniqueIndexes) {
      if (after && index.reads && keeps(before, after, index.reads)) continue;
      for (const value of without(index.keysOf(before), after && index.keysOf(after))) {
        this.s.removeUnique.run(this.name, index.name, value, change.key);
      }
    }
    for (const [path, parts] of this.fieldPaths) {
      if (after && keeps(before, after, [parts[0]])) continue;
      for (const value of without(fieldValues(before, parts), after && fieldValues(after, parts))) {
        this.s.removeField.run(this.name, path, value, seq);
      }
    }
    for (const index of this.sortIndexes) {
      if (after && keeps(before, after, index.reads)) continue;
      for (const place of withoutPlaces(sortPlaces(before, index), after && sortPlaces(after, index))) {
        if (this.s.removeSort.run(this.name, index.id, place.lead, place.sortKey, seq).changes) {
          this.sortCounts.moved(this.name, index.id, place.lead, -1);
        }
      }
    }
  }

  /**
   * Adds the entries of `after` that `before` did not have (all of them, or only for `only`): an
   * update that rewrites a field to an equal value, or changes a field beside the indexed path,
   * writes no entry.
   */
  private writeEntries({ seq, key, before, after, only }: EntryWrite): void {
    if (!after) return;
    for (const index of only ? only.unique : this.uniqueIndexes) {
      if (before && index.reads && keeps(before, after, index.reads)) continue;
      for (const value of without(index.keysOf(after), before && index.keysOf(before))) {
        try {
          this.s.addUnique.run(this.name, index.name, value, key);
        } catch (err) {
          throw isConstraint(err) ? new DuplicateKeyError(this.name, index.name, { cause: err }) : err;
        }
      }
    }
    for (const [path, parts] of only ? only.fields : this.fieldPaths) {
      if (before && keeps(before, after, [parts[0]])) continue;
      for (const value of without(fieldValues(after, parts), before && fieldValues(before, parts))) {
        this.s.addField.run(this.name, path, value, seq);
      }
    }
    for (const index of only ? only.sort : this.sortIndexes) {
      if (before && keeps(before, after, index.reads)) continue;
      for (const place of withoutPlaces(sortPlaces(after, index), before && sortPlaces(before, index))) {
        if (this.s.addSort.run(this.name, index.id, place.lead, place.sortKey, seq).changes) {
          this.sortCounts.moved(this.name, index.id, place.lead, 1);
        }
      }
    }
  }

  /** Records a declared index in memory; returns the structures it added (the ones to fill). */
  private declare(spec: IndexSpec): Declared {
    const entry = indexEntry(spec);
    const added: Declared = { unique: [], fields: new Map(), sort: [] };
    const fields = Object.keys(spec.keys);
    this.indexes.push(entry);
    if (entry.unique) {
      const index = new UniqueIndex(entry.name, spec.keys, spec.partialFilter);
      this.uniqueIndexes.push(index);
      added.unique.push(index);
    }
    for (const field of fields) {
      if (!isIndexablePath(field) || this.fieldPaths.has(field)) continue;
      this.fieldPaths.set(field, field.split('.'));
      added.fields.set(field, field.split('.'));
    }
    const sort = sortIndexOf(fields, entry.unique, entry.name, spec.partialFilter);
    if (sort && !this.sortIndexes.some((s) => s.id === sort.id)) {
      this.sortIndexes.push(sort);
      added.sort.push(sort);
    }
    return added;
  }

  /** Forgets an index whose creation failed (its entries were rolled back with it). */
  private undeclare(name: string): void {
    this.indexes.splice(0, this.indexes.length, ...this.indexes.filter((index) => index.name !== name));
    this.uniqueIndexes.splice(
      0,
      this.uniqueIndexes.length,
      ...this.uniqueIndexes.filter((index) => index.name !== name),
    );
    this.fieldPaths.clear();
    this.sortIndexes.splice(0);
    const remaining = this.indexes.filter((index) => index.name !== '_id_');
    for (const index of remaining) {
      const fields = Object.keys(JSON.parse(index.keys) as Record<string, unknown>);
      for (const field of fields) if (isIndexablePath(field)) this.fieldPaths.set(field, field.split('.'));
      const sort = sortIndexOf(fields, index.unique, index.name, index.partialSpec);
      if (sort && !this.sortIndexes.some((s) => s.id === sort.id)) this.sortIndexes.push(sort);
    }
  }
}

/** A walk of sort entries: the leading values, the range of sort keys, and what it answers of the filter. */
interface Walk {
  index: SortIndex;
  leads: string[];
  range: KeyRange;
  direction: 1 | -1;
  /** Entries within the range, counted up to SIZE_CAP. */
  size: number;
  served: string[];
  /** It answers every condition of the filter: each document it yields matches but for an `$or`'s tie-break. */
  exact: boolean;
}

/**
 * A condition of only range operators with bounds the sort keys order (string, number, date), or an equality to one.
 */
function isRangeCondition(condition: unknown): boolean {
  const bound = (value: unknown) =>
    typeof value === 'string' || (typeof value === 'number' && !Number.isNaN(value))
    || (value instanceof Date && !Number.isNaN(value.getTime()));
  if (bound(condition)) return true;
  if (!isPlainObject(condition) || Object.keys(condition).length === 0) return false;
  return Object.entries(condition).every(([op, value]) =>
    ['$gt', '$gte', '$lt', '$lte', '$eq'].includes(op) && bound(value)
  );
}

/** The names of a filter's conditions: each field of its conjuncts, an `$or` as `$or(a|b&c)`. */
export function filterNames(parts: Filter[]): string[] {
  const names: string[] = [];
  for (const part of parts) {
    for (const [field, condition] of Object.entries(part)) {
      if (field === '$and') continue;
      names.push(field === '$or' && Array.isArray(condition) ? orName(condition) : field);
    }
  }
  return [...new Set(names)];
}

/** The entry value an equality to a scalar, or `{$exists: true}`, is counted by; else undefined. */
function entryOf(condition: unknown): string | undefined {
  const value = scalarEquality(condition);
  if (value !== undefined) return serializeValue(value);
  return isPlainObject(condition) && Object.keys(condition).length === 1 && condition.$exists === true
    ? PRESENT
    : undefined;
}

/** A count's filter as its conditions besides one `$or` of two branches, and those branches; else undefined. */
function orBranches(filter: Filter): { rest: Filter[]; branches: [Filter, Filter] } | undefined {
  const rest: Filter[] = [];
  let branches: [Filter, Filter] | undefined;
  for (const part of conjuncts(filter)) {
    for (const [field, condition] of Object.entries(part)) {
      if (field === '$and') continue;
      if (field !== '$or') rest.push({ [field]: condition });
      else if (branches || !Array.isArray(condition) || condition.length !== 2) return undefined;
      else if (!condition.every(isPlainObject)) return undefined;
      else branches = condition as [Filter, Filter];
    }
  }
  return branches && { rest, branches };
}

/** What a count answered from index entries reads (named as `explain` names it), and the count. */
interface IndexCount {
  index: string;
  count(): number;
}

function orName(branches: unknown[]): string {
  return `$or(${
    branches.map((branch) => (isPlainObject(branch) ? filterNames(conjuncts(branch)).join('&') : '?')).join('|')
  })`;
}

/**
 * The conditions a walk answers: its pinned leading fields, and the ranges (an `$or` of ranges too) of its sort field.
 */
function servedByWalk(parts: Filter[], index: SortIndex, range: KeyRange): string[] {
  const served: string[] = [];
  for (const part of parts) {
    for (const [field, condition] of Object.entries(part)) {
      if (index.leading.includes(field) && pinnedLeads([part], { ...index, leading: [field] }) !== undefined) {
        served.push(field);
      } else if (
        index.partial && field in index.partial.filter
        && serializeValue(condition) === serializeValue(index.partial.filter[field])
      ) served.push(field);
      else if (field === index.sortField && range.bounded && keyRange([{ [field]: condition }], field).bounded) {
        served.push(field);
      } else if (
        field === '$or' && Array.isArray(condition) && keyRange([{ $or: condition }], index.sortField).bounded
      ) served.push(orName(condition));
    }
  }
  return [...new Set(served)];
}

interface Declared {
  unique: UniqueIndex[];
  fields: Map<string, string[]>;
  sort: SortIndex[];
}

interface SeqPlan {
  /** The filter fields its entries answer (see filterNames). */
  serves: string[];
  /** Entries counted, at most `cap` per value (counted when first asked), to pick the narrowest plan. */
  sizeUpTo(cap: number): number;
  /** Candidate rows, ascending (insertion order). */
  seqs(): number[];
}

function seqPlan(serves: string[], count: (cap: number) => number, seqs: () => number[]): SeqPlan {
  const counted = new Map<number, number>();
  return {
    serves,
    sizeUpTo(cap) {
      let size = counted.get(cap);
      if (size === undefined) counted.set(cap, size = count(cap));
      return size;
    },
    seqs,
  };
}

/** Entries a first count goes up to: a plan below it is exact, and narrower than any plan that reaches it. */
const FIRST_COUNT = 32;

/**
 * The plan with the fewest entries, counted no further than needed: a lone plan is not counted; else
 * each up to FIRST_COUNT, and only when every one reaches it up to SIZE_CAP. Of equals, the one
 * answering more conditions, then the last (a filter names its tenant first, its narrowing conditions after).
 */
function narrowest(plans: SeqPlan[]): SeqPlan | undefined {
  if (plans.length < 2) return plans[0];
  for (const cap of [FIRST_COUNT, SIZE_CAP]) {
    let best = plans[0];
    for (const plan of plans) {
      const [size, least] = [plan.sizeUpTo(cap), best.sizeUpTo(cap)];
      if (size < least || (size === least && plan.serves.length >= best.serves.length)) best = plan;
    }
    if (best.sizeUpTo(cap) < cap || cap === SIZE_CAP) return best;
  }
  return plans[0];
}

function indexEntry(spec: IndexSpec): IndexEntry {
  return {
    name: spec.name ?? Object.entries(spec.keys).map(([field, direction]) => `${field}_${direction}`).join('_'),
    keys: JSON.stringify(spec.keys),
    unique: spec.unique ?? false,
    partialFilter: spec.partialFilter ? serializeValue(spec.partialFilter) : '',
    ...(spec.partialFilter ? { partialSpec: spec.partialFilter } : {}),
  };
}

/**
 * The field entries of a document at a path: its scalar values, PRESENT when it holds the path, OPAQUE for shapes not
 * modelled.
 */
function fieldValues(doc: Doc, parts: string[]): string[] {
  const entry = readPath(doc, parts);
  const values = [...entry.keys];
  if (entry.present) values.push(PRESENT);
  if (entry.opaque) values.push(OPAQUE);
  return values;
}

function isRangeBound(value: unknown): boolean {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) || value instanceof Date;
}

/** The entries of `values` that `other` lacks (all of them without `other`). */
function without(values: string[], other: string[] | undefined): string[] {
  if (!other || other.length === 0 || values.length === 0) return values;
  return values.filter((value) => !other.includes(value));
}

/** The places of `these` that `others` does not have. */
function withoutPlaces(these: SortPlace[], others: SortPlace[] | undefined): SortPlace[] {
  if (!others?.length) return these;
  return these.filter((a) => !others.some((b) => a.lead === b.lead && a.sortKey === b.sortKey));
}

/** Whether an update left each of the top-level `fields` the very value it was. */
function keeps(before: Doc, after: Doc, fields: readonly string[]): boolean {
  return fields.every((field) => before[field] === after[field]);
}

function sortedUnion(lists: number[][]): number[] {
  return [...new Set(lists.flat())].sort((a, b) => a - b);
}

const isConstraint = (err: unknown) => String((err as { code?: string }).code).startsWith('SQLITE_CONSTRAINT');
