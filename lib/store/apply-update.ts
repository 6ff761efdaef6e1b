import { cloneDocument } from './clone-document';
import type { Update } from './document-store';
import { isPlainObject, serializeValue, topField } from './index-keys';
import { mingoEngine } from './mingo-engine';
import { applyTopLevel } from './top-level-update';

type Modifier = Record<string, Record<string, unknown>>;

const CREATING = new Set(['$set', '$inc', '$mul', '$min', '$max', '$push', '$addToSet', '$currentDate', '$bit']);
const NUMERIC = new Set(['$inc', '$mul']);
const APPENDING = new Set(['$push', '$addToSet']);
const REMOVING = new Set(['$pull', '$pullAll', '$pop']);

/** Rejects what MongoDB rejects before looking at any document: replacements and unknown operators. */
export function assertUpdateDocument(update: Update): asserts update is Modifier {
  const operators = isPlainObject(update) ? Object.keys(update) : [];
  if (operators.length === 0 || !operators.every((op) => op.startsWith('$'))) {
    throw new Error('Update document requires atomic operators');
  }
  for (const op of operators) {
    if (op !== '$setOnInsert' && !mingoEngine.hasUpdateOperator(op)) throw new Error(`Unknown modifier: ${op}`);
    if (!isPlainObject(update[op])) {
      throw new Error(`Modifiers operate on fields but we found a ${typeof update[op]} instead: ${op}`);
    }
  }
}

/**
 * Applies MongoDB update operators to `doc` in place. `insert` is the upsert case, where
 * $setOnInsert applies and `_id` may be given; otherwise `_id` is immutable.
 * Returns whether the document changed.
 *
 * `doc` may be a shallow copy of a stored document, sharing its fields' values: those are only
 * replaced, never changed in place (a field an operator would change in place is copied first).
 */
export function applyUpdate(doc: Record<string, unknown>, update: Update, mode: 'update' | 'insert'): boolean {
  assertUpdateDocument(update);
  const modifier: Modifier = {};
  for (const [op, fields] of Object.entries(update)) {
    if (op !== '$setOnInsert') modifier[op] = { ...fields };
  }
  if (mode === 'insert' && update.$setOnInsert) {
    const set = (modifier.$set ??= {});
    for (const [path, value] of Object.entries(update.$setOnInsert)) {
      if (path in set) throw new Error(`Updating the path '${path}' would create a conflict at '${path}'`);
      set[path] = value;
    }
  }
  const newId = takeIdUpdate(doc, modifier);
  assertNoConflicts(modifier);
  let changed = false;
  const owned = new Set<string>();
  for (const [op, fields] of Object.entries(modifier)) {
    if (Object.keys(fields).length === 0) continue;
    for (const path of Object.keys(fields)) assertApplicable(doc, op, path);
    // A fresh copy per document, so documents updated together share no values.
    const values = cloneDocument(fields);
    const native = applyTopLevel(op, values, doc);
    if (native !== undefined) {
      changed = native || changed;
      continue;
    }
    // mingo changes values in place: the fields it works on become this document's own first.
    for (const field of topFieldsOf(op, fields)) {
      if (owned.has(field)) continue;
      owned.add(field);
      if (Object.prototype.hasOwnProperty.call(doc, field)) doc[field] = cloneDocument(doc[field]);
    }
    changed = mingoEngine.applyUpdateOperator(op, values, doc) || changed;
  }
  if (newId) {
    doc._id = newId.value;
    changed = true;
  }
  return changed;
}

/** The top-level fields one operator's paths name (both sides of a `$rename`). */
function topFieldsOf(op: string, fields: Record<string, unknown>): string[] {
  const names: string[] = [];
  for (const [path, value] of Object.entries(fields)) {
    names.push(topField(path));
    if (op === '$rename') names.push(topField(String(value)));
  }
  return names;
}

/**
 * `$set: {_id: x}` is allowed when it changes nothing, or when an upsert creates the document
 * without an `_id` from its filter; any other update of `_id` is an error, as in MongoDB.
 */
function takeIdUpdate(doc: Record<string, unknown>, modifier: Modifier): { value: unknown } | undefined {
  let newId: { value: unknown } | undefined;
  for (const [op, fields] of Object.entries(modifier)) {
    const targets = op === '$rename'
      ? [...Object.keys(fields), ...Object.values(fields).map(String)]
      : Object.keys(fields);
    for (const path of targets) {
      if (path !== '_id' && !path.startsWith('_id.')) continue;
      if (op !== '$set' || path !== '_id') throw immutableId();
      const value = fields._id;
      delete fields._id;
      if (doc._id === undefined) newId = { value };
      else if (serializeValue(doc._id) !== serializeValue(value)) throw immutableId();
    }
  }
  if (newId && (Array.isArray(newId.value) || newId.value === undefined)) throw new Error("can't use an array for _id");
  return newId;
}

/** MongoDB rejects an update in which one path is, or is a prefix of, another. */
function assertNoConflicts(modifier: Modifier): void {
  const paths: string[] = [];
  for (const [op, fields] of Object.entries(modifier)) {
    for (const [path, value] of Object.entries(fields)) {
      paths.push(path);
      if (op === '$rename') paths.push(String(value));
    }
  }
  paths.forEach((path, i) => {
    for (const other of paths.slice(i + 1)) {
      if (path === other || other.startsWith(`${path}.`) || path.startsWith(`${other}.`)) {
        throw new Error(`Updating the path '${other}' would create a conflict at '${path}'`);
      }
    }
  });
}

function immutableId(): Error {
  return new Error("Performing an update on the path '_id' would modify the immutable field '_id'");
}

/** The type errors MongoDB raises and mingo silently skips, for paths without positional operators. */
function assertApplicable(doc: Record<string, unknown>, op: string, path: string): void {
  if (path.includes('$')) return;
  const parts = path.split('.');
  let value: unknown = doc;
  for (let i = 0; i < parts.length; i++) {
    if (Array.isArray(value) && /^\d+$/.test(parts[i])) value = value[Number(parts[i])];
    else if (isPlainObject(value)) value = value[parts[i]];
    else return;
    if (value === undefined) return;
    const last = i === parts.length - 1;
    if (!last && CREATING.has(op) && (value === null || typeof value !== 'object')) {
      throw new Error(`Cannot create field '${parts[i + 1]}' in element {${parts[i]}: ${describe(value)}}`);
    }
    if (!last) continue;
    if (NUMERIC.has(op) && typeof value !== 'number' && typeof value !== 'bigint') {
      throw new Error(`Cannot apply ${op} to a value of non-numeric type: field '${path}' is ${describe(value)}`);
    }
    if ((APPENDING.has(op) || REMOVING.has(op)) && !Array.isArray(value)) {
      throw new Error(`Cannot apply ${op} to a non-array field: '${path}' is ${describe(value)}`);
    }
  }
}

function describe(value: unknown): string {
  return value === null ? 'null' : typeof value === 'object' ? 'an object' : JSON.stringify(value);
}
