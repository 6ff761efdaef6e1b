import { applyUpdate, assertUpdateDocument } from './apply-update';
import { cloneDocument } from './clone-document';
import {
  DuplicateKeyError,
  type Doc,
  type DocumentCollection,
  type Filter,
  type FindOptions,
  type IndexSpec,
  type Sort,
  type Update,
  type UpdateResult,
} from './document-store';
import { isPlainObject, serializeValue } from './index-keys';
import { mingoEngine } from './mingo-engine';
import { newDocumentId } from './new-document-id';
import { sortDocuments } from './sort-documents';
import { UniqueIndex } from './unique-index';
import { upsertSeed } from './upsert-seed';

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
 */
export class EmbeddedCollection implements DocumentCollection<Doc> {
  private readonly docs = new Map<string, Doc>();
  private readonly indexes: IndexEntry[] = [{ name: '_id_', keys: '{"_id":1}', unique: true, partialFilter: '' }];
  private readonly uniqueIndexes: UniqueIndex[] = [];

  constructor(readonly name: string) {}

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
  }

  async insertOne(doc: Doc): Promise<void> {
    if (!isPlainObject(doc)) throw new TypeError('insertOne expects a document');
    if (doc._id === undefined || Array.isArray(doc._id)) throw new TypeError('insertOne requires a non-array _id');
    const { _id, ...fields } = cloneDocument(doc);
    this.commit([{ key: serializeValue(_id), after: { _id, ...fields } }]);
  }

  async findOne(filter: Filter): Promise<Doc | null> {
    const [doc] = this.match(filter, 1);
    return doc ? cloneDocument(doc) : null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<Doc[]> {
    const skip = options.skip ?? 0;
    const limit = Math.abs(options.limit ?? 0);
    if (skip < 0) throw new Error('skip must be non-negative');
    let docs = options.sort ? sortDocuments(this.match(filter), options.sort) : this.match(filter, limit && skip + limit);
    docs = docs.slice(skip, limit ? skip + limit : undefined);
    return docs.map(cloneDocument);
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
    const [target] = options.sort ? sortDocuments(this.match(filter), options.sort) : this.match(filter, 1);
    if (target) {
      const before = cloneDocument(target);
      this.updateStored([target], update);
      return returnAfter ? cloneDocument(this.docs.get(serializeValue(target._id)) as Doc) : before;
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

  /** Stored documents matching `filter` in insertion order, at most `max` of them (0: all). */
  private match(filter: Filter, max = 0): Doc[] {
    const normalized = cloneDocument(filter);
    const query = mingoEngine.compileFilter(normalized);
    const found: Doc[] = [];
    for (const doc of this.candidates(normalized)) {
      if (query.test(doc)) {
        found.push(doc);
        if (found.length === max) break;
      }
    }
    return found;
  }

  /** Uses the `_id` map or a unique index when the filter pins them, else scans. */
  private candidates(filter: Filter): Iterable<Doc> {
    if ('_id' in filter) {
      const ids = idEqualities(filter._id);
      if (ids) {
        const keys = [...new Set(ids.map(serializeValue))];
        return keys.map((key) => this.docs.get(key)).filter((doc): doc is Doc => doc !== undefined);
      }
    }
    for (const index of this.uniqueIndexes) {
      if (index.partialFilter || index.fields.some((field) => /(^|\.)\d+(\.|$)/.test(field))) continue;
      const values = index.fields.map((field) => scalarEquality(filter[field]));
      if (values.some((value) => value === undefined)) continue;
      const owner = index.entries.get(values.map(serializeValue).join(','));
      const doc = owner === undefined ? undefined : this.docs.get(owner);
      return doc ? [doc] : [];
    }
    return this.docs.values();
  }

  /** Applies `update` to copies of `targets` and stores them together; returns how many changed. */
  private updateStored(targets: Doc[], update: Update): number {
    const changes: Change[] = [];
    for (const before of targets) {
      const after = cloneDocument(before);
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
    const changing = new Set(changes.map((change) => change.key));
    for (const change of changes) {
      if (!change.before && change.after && this.docs.has(change.key)) throw new DuplicateKeyError(this.name, '_id_');
    }
    const added = this.uniqueIndexes.map((index) => {
      const claimed = new Map<string, string>();
      for (const change of changes) {
        if (!change.after) continue;
        for (const indexKey of index.keysOf(change.after)) {
          const owner = index.entries.get(indexKey);
          const claimant = claimed.get(indexKey);
          if ((owner !== undefined && !changing.has(owner)) || (claimant !== undefined && claimant !== change.key)) {
            throw new DuplicateKeyError(this.name, index.name);
          }
          claimed.set(indexKey, change.key);
        }
      }
      return claimed;
    });
    this.uniqueIndexes.forEach((index) => {
      for (const change of changes) {
        if (!change.before) continue;
        for (const indexKey of index.keysOf(change.before)) {
          if (index.entries.get(indexKey) === change.key) index.entries.delete(indexKey);
        }
      }
    });
    this.uniqueIndexes.forEach((index, i) => {
      for (const [indexKey, key] of added[i]) index.entries.set(indexKey, key);
    });
    for (const change of changes) {
      if (change.after) this.docs.set(change.key, change.after);
      else this.docs.delete(change.key);
    }
  }
}

/** `_id` values an `_id` condition pins by equality (`x`, `{$eq: x}`, `{$in: [...]}`), if it does. */
function idEqualities(condition: unknown): unknown[] | undefined {
  const single = scalarEquality(condition);
  if (single !== undefined) return [single];
  if (isPlainObject(condition) && Object.keys(condition).length === 1 && Array.isArray(condition.$in)) {
    const values = condition.$in.map(scalarEquality);
    return values.every((value) => value !== undefined) ? values : undefined;
  }
  return undefined;
}

/** A string, finite number or boolean an equality condition requires, else undefined. */
function scalarEquality(condition: unknown): string | number | boolean | undefined {
  const value = isPlainObject(condition) && Object.keys(condition).length === 1 && '$eq' in condition ? condition.$eq : condition;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  return undefined;
}
