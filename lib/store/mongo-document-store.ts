import {
  MongoClient,
  type Collection,
  type CreateIndexesOptions,
  type Document,
  type Filter as MongoFilter,
  type UpdateFilter,
} from 'mongodb';
import {
  DuplicateKeyError,
  type Doc,
  type DocumentCollection,
  type DocumentStore,
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
import { isPlainObject } from './index-keys';
import { newDocumentId } from './new-document-id';
import { upsertSeed } from './upsert-seed';

const PING_TIMEOUT_MS = 2000;

/**
 * The DocumentStore over a MongoDB server, with the official driver. Connects before resolving.
 * `client` (tests: one with command monitoring) replaces the client made from `uri`.
 */
export async function createMongoDocumentStore(
  options: { uri: string; dbName?: string; client?: MongoClient; serverSelectionTimeoutMS?: number },
): Promise<DocumentStore> {
  const client = options.client
    ?? new MongoClient(
      options.uri,
      options.serverSelectionTimeoutMS ? { serverSelectionTimeoutMS: options.serverSelectionTimeoutMS } : undefined,
    );
  await client.connect();
  const db = client.db(options.dbName);
  const collections = new Map<string, MongoCollection>();
  return {
    collection<T extends Doc = Doc>(name: string): DocumentCollection<T> {
      let collection = collections.get(name);
      if (!collection) {
        collection = new MongoCollection(db.collection(name));
        collections.set(name, collection);
      }
      return collection as unknown as DocumentCollection<T>;
    },
    async ping() {
      try {
        await client.db('admin').command({ ping: 1 }, { signal: AbortSignal.timeout(PING_TIMEOUT_MS) });
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await client.close();
    },
  };
}

class MongoCollection implements DocumentCollection<Doc> {
  readonly name: string;

  constructor(private readonly collection: Collection<Document>) {
    this.name = collection.collectionName;
  }

  async createIndex(spec: IndexSpec): Promise<void> {
    const options: CreateIndexesOptions = {};
    if (spec.unique !== undefined) options.unique = spec.unique;
    if (spec.partialFilter) options.partialFilterExpression = spec.partialFilter;
    if (spec.name) options.name = spec.name;
    await this.run(() => this.collection.createIndex(spec.keys, options));
  }

  async insertOne(doc: Doc): Promise<void> {
    if (!isPlainObject(doc)) throw new TypeError('insertOne expects a document');
    if (doc._id === undefined || Array.isArray(doc._id)) throw new TypeError('insertOne requires a non-array _id');
    await this.run(() => this.collection.insertOne(doc as Document));
  }

  async findOne(filter: Filter, options: { projection?: Projection } = {}): Promise<Doc | null> {
    return (await this.collection.findOne(
      filter as MongoFilter<Document>,
      options.projection ? { projection: options.projection } : {},
    )) as Doc | null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<Doc[]> {
    const cursor = this.collection.find(filter as MongoFilter<Document>);
    if (options.projection) cursor.project(options.projection);
    if (options.sort) cursor.sort(options.sort);
    if (options.skip) cursor.skip(options.skip);
    if (options.limit) cursor.limit(options.limit);
    return (await cursor.toArray()) as unknown as Doc[];
  }

  /**
   * MongoDB's own plan (`explain('queryPlanner')`, the winning plan): IXSCAN or a count scan of an
   * index, else COLLSCAN; a SORT stage means the index did not give the order.
   */
  async explain(filter: Filter, options: ExplainOptions = {}): Promise<QueryPlan> {
    const explained = options.count
      ? await this.collection.db.command({ explain: { count: this.name, query: filter }, verbosity: 'queryPlanner' })
      : await this.collection.find(filter as MongoFilter<Document>, {
        ...(options.sort ? { sort: options.sort } : {}),
        ...(options.limit ? { limit: options.limit } : {}),
      }).explain('queryPlanner');
    return mongoPlan(filter, explained.queryPlanner?.winningPlan as Document | undefined, options.count ?? false);
  }

  async countDocuments(filter: Filter): Promise<number> {
    return this.collection.countDocuments(filter as MongoFilter<Document>);
  }

  async updateOne(filter: Filter, update: Update, options: { upsert?: boolean } = {}): Promise<UpdateResult> {
    const result = await this.run(() =>
      this.collection.updateOne(filter as MongoFilter<Document>, withUpsertId(filter, update, options.upsert), {
        upsert: options.upsert ?? false,
      })
    );
    const counts: UpdateResult = { matchedCount: result.matchedCount, modifiedCount: result.modifiedCount };
    if (result.upsertedId !== null && result.upsertedId !== undefined) {
      counts.upsertedId = result.upsertedId as unknown as string;
    }
    return counts;
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    const result = await this.run(() =>
      this.collection.updateMany(filter as MongoFilter<Document>, update as UpdateFilter<Document>)
    );
    return { matchedCount: result.matchedCount, modifiedCount: result.modifiedCount };
  }

  async findOneAndUpdate(
    filter: Filter,
    update: Update,
    options: { returnDocument?: 'before' | 'after'; upsert?: boolean; sort?: Sort } = {},
  ): Promise<Doc | null> {
    const doc = await this.run(() =>
      this.collection.findOneAndUpdate(filter as MongoFilter<Document>, withUpsertId(filter, update, options.upsert), {
        returnDocument: options.returnDocument ?? 'before',
        upsert: options.upsert ?? false,
        ...(options.sort ? { sort: options.sort } : {}),
        includeResultMetadata: false,
      })
    );
    return doc as Doc | null;
  }

  async deleteOne(filter: Filter): Promise<{ deletedCount: number }> {
    const result = await this.collection.deleteOne(filter as MongoFilter<Document>);
    return { deletedCount: result.deletedCount };
  }

  async deleteMany(filter: Filter): Promise<{ deletedCount: number }> {
    const result = await this.collection.deleteMany(filter as MongoFilter<Document>);
    return { deletedCount: result.deletedCount };
  }

  private async run<R>(operation: () => Promise<R>): Promise<R> {
    try {
      return await operation();
    } catch (error) {
      if (isDuplicateKey(error)) throw new DuplicateKeyError(this.name, duplicateIndexName(error), { cause: error });
      throw error;
    }
  }
}

/**
 * The server would give an upserted document an ObjectId; our `_id`s are strings, so when neither
 * the filter's equalities nor the update name one, the upsert inserts a generated string id.
 */
function withUpsertId(filter: Filter, update: Update, upsert: boolean | undefined): UpdateFilter<Document> {
  if (!upsert || !isPlainObject(update) || '_id' in upsertSeed(filter)) return update as UpdateFilter<Document>;
  const setOnInsert = isPlainObject(update.$setOnInsert) ? update.$setOnInsert : {};
  if ('_id' in setOnInsert || (isPlainObject(update.$set) && '_id' in update.$set)) {
    return update as UpdateFilter<Document>;
  }
  return { ...update, $setOnInsert: { ...setOnInsert, _id: newDocumentId() } } as UpdateFilter<Document>;
}

function isDuplicateKey(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 11000;
}

function duplicateIndexName(error: unknown): string {
  const { errmsg, message, keyPattern } = error as { errmsg?: unknown; message?: unknown; keyPattern?: unknown };
  const text = typeof errmsg === 'string' ? errmsg : String(message);
  const named = /index: (\S+) dup key/.exec(text);
  if (named) return named[1];
  if (isPlainObject(keyPattern)) {
    return Object.entries(keyPattern).map(([field, direction]) => `${field}_${String(direction)}`).join('_');
  }
  return 'unknown';
}

/**
 * Our QueryPlan of a MongoDB winning plan: its index stage (IXSCAN, COUNT_SCAN, IDHACK/EXPRESS) and whether it sorts in
 * memory.
 */
function mongoPlan(filter: Filter, winning: Document | undefined, count: boolean): QueryPlan {
  const stages: Document[] = [];
  const visit = (stage: Document | undefined) => {
    if (!stage) return;
    stages.push(stage);
    visit(stage.inputStage as Document | undefined);
    for (const input of (stage.inputStages as Document[] | undefined) ?? []) visit(input);
  };
  visit(winning);
  const names = conditionNames(filter);
  const scan = stages.find((stage) => ['IXSCAN', 'COUNT_SCAN', 'DISTINCT_SCAN'].includes(stage.stage as string));
  const byId = stages.some((stage) => ['IDHACK', 'EXPRESS_IXSCAN', 'CLUSTERED_IXSCAN'].includes(stage.stage as string));
  const sorted = !stages.some((stage) => String(stage.stage).includes('SORT'));
  const fetchFilter = stages.find((stage) => stage.stage === 'FETCH' && stage.filter);
  const filtered = fetchFilter ? names.filter((name) => JSON.stringify(fetchFilter.filter).includes(`"${name}"`)) : [];
  const base = {
    sorted,
    filtered,
    served: names.filter((name) => !filtered.includes(name)),
    ...(count ? { countedFromIndex: !stages.some((stage) => stage.stage === 'FETCH') } : {}),
  };
  if (byId) return { source: 'id', index: '_id_', ...base };
  if (scan) return { source: 'index', index: String(scan.indexName), ...base };
  return { source: 'scan', sorted, served: [], filtered: names, ...(count ? { countedFromIndex: false } : {}) };
}

/** The fields a filter's conditions name, through `$and` (an `$or` as `$or(a|b)`), as the embedded store names them. */
function conditionNames(filter: Filter): string[] {
  const names: string[] = [];
  for (const [field, condition] of Object.entries(filter)) {
    if (field === '$and' && Array.isArray(condition)) {
      names.push(...condition.filter(isPlainObject).flatMap(conditionNames));
    } else if (field === '$or' && Array.isArray(condition)) {
      names.push(
        `$or(${condition.map((branch) => (isPlainObject(branch) ? conditionNames(branch).join('&') : '?')).join('|')})`,
      );
    } else names.push(field);
  }
  return [...new Set(names)];
}
