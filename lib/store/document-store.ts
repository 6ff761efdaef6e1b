/**
 * The storage port every service's store/ is written against: the subset of the MongoDB
 * collection API we use, with MongoDB's semantics (query and update language, unique
 * indexes, atomic single-document find-and-modify). Two adapters implement it:
 * `createMongoDocumentStore` (official driver) and `createEmbeddedDocumentStore` (in-process).
 *
 * Atomicity is per document, as in MongoDB without transactions. Code that must change state
 * and record an event together keeps the event inside the same document (see lib/bus/outbox.ts).
 */
export type Doc = { _id: string } & Record<string, unknown>;
export type Filter = Record<string, unknown>;
export type Update = Record<string, unknown>;
export type Sort = Record<string, 1 | -1>;

/** Top-level fields to return (`_id` always comes too), so a read leaves large fields behind. */
export type Projection = Record<string, 1>;

export interface FindOptions {
  sort?: Sort;
  limit?: number;
  skip?: number;
  projection?: Projection;
}

export interface UpdateResult {
  matchedCount: number;
  modifiedCount: number;
  upsertedId?: string;
}

export interface IndexSpec {
  keys: Record<string, 1 | -1>;
  unique?: boolean;
  /** Only documents matching this filter are indexed (MongoDB partialFilterExpression). */
  partialFilter?: Filter;
  name?: string;
}

/**
 * How a store answers a query (`explain`): where its candidates come from, and which of the
 * filter's fields that source answers; the others are tested on each candidate it fetches.
 */
export interface QueryPlan {
  /** `id`/`unique`: one key looked up; `index`: an index's entries; `scan`: every document. */
  source: 'id' | 'unique' | 'index' | 'scan';
  /** The index read (the store's name for it); absent for a scan. */
  index?: string;
  /** Whether the index gives the documents in the requested sort order (no sort in memory). */
  sorted: boolean;
  /** Filter fields the index answers (a path, as the filter names it). */
  served: string[];
  /** Filter fields tested on every fetched candidate instead. */
  filtered: string[];
  /** For a count: whether it is answered from index entries alone, without fetching documents. */
  countedFromIndex?: boolean;
}

export interface ExplainOptions {
  sort?: Sort;
  limit?: number;
  /** Explain `countDocuments(filter)` instead of `find`. */
  count?: boolean;
}

export interface DocumentCollection<T extends Doc = Doc> {
  readonly name: string;
  createIndex(spec: IndexSpec): Promise<void>;
  /** Throws DuplicateKeyError when a unique index (or _id) would be violated. */
  insertOne(doc: T): Promise<void>;
  findOne(filter: Filter, options?: { projection?: Projection }): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  countDocuments(filter: Filter): Promise<number>;
  /** Applies `update` (operators such as $set, $inc, $push, $pull) to the first match. */
  updateOne(filter: Filter, update: Update, options?: { upsert?: boolean }): Promise<UpdateResult>;
  updateMany(filter: Filter, update: Update): Promise<UpdateResult>;
  /** Atomic find-and-modify. Returns null when nothing matched (and no upsert). */
  findOneAndUpdate(
    filter: Filter,
    update: Update,
    options?: { returnDocument?: 'before' | 'after'; upsert?: boolean; sort?: Sort },
  ): Promise<T | null>;
  deleteOne(filter: Filter): Promise<{ deletedCount: number }>;
  deleteMany(filter: Filter): Promise<{ deletedCount: number }>;
  /** The plan the store would run for `find(filter, options)` (or `countDocuments` with `count`); runs nothing. */
  explain(filter: Filter, options?: ExplainOptions): Promise<QueryPlan>;
}

export interface DocumentStore {
  collection<T extends Doc = Doc>(name: string): DocumentCollection<T>;
  /** Answers whether the backing database is reachable (readiness). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export class DuplicateKeyError extends Error {
  constructor(readonly collection: string, readonly index: string, options?: { cause?: unknown }) {
    super(`duplicate key in ${collection} (index ${index})`, options);
    this.name = 'DuplicateKeyError';
  }
}
