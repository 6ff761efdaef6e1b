const { isEqual } = require('mingo/util') as typeof import('mingo/types/util');

const PUSH_MODIFIERS = ['$each', '$slice', '$sort', '$position'];

const isPlain = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && (v as object).constructor === Object;
const own = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);

/**
 * Applies `$set`, `$unset`, `$inc`, `$push` or `$pull` whose paths are all top-level fields, without
 * mingo, exactly as mingo's operators do (the same equality decides whether anything changed;
 * `$push` onto a missing field takes `$each` as is). A field is only ever replaced, never changed
 * in place, so the document may share its values with the stored one. `values` must be the
 * caller's own copy. Returns whether the document changed, or undefined for anything else
 * (dotted or positional paths, other operators, `$push` with `$sort` or `$position`, a `$pull`
 * other than by scalar members of documents, operands mingo would reject), which is left to mingo.
 */
export function applyTopLevel(
  op: string,
  values: Record<string, unknown>,
  doc: Record<string, unknown>,
): boolean | undefined {
  const fields = Object.keys(values);
  if (fields.some((field) => field === '' || field === '__proto__' || field.includes('.') || field.includes('$'))) {
    return undefined;
  }
  if (op === '$set') return set(fields, values, doc);
  if (op === '$unset') return unset(fields, doc);
  if (op === '$inc') {
    return fields.every((field) => typeof values[field] === 'number' && !Number.isNaN(values[field]))
      ? inc(fields, values, doc)
      : undefined;
  }
  if (op === '$push') return push(fields, values, doc);
  if (op === '$pull') return pull(fields, values, doc);
  return undefined;
}

function set(fields: string[], values: Record<string, unknown>, doc: Record<string, unknown>): boolean {
  let changed = false;
  for (const field of fields) {
    if (isEqual(doc[field], values[field])) continue;
    doc[field] = values[field];
    changed = true;
  }
  return changed;
}

function unset(fields: string[], doc: Record<string, unknown>): boolean {
  let changed = false;
  for (const field of fields) {
    if (!own(doc, field)) continue;
    const previous = doc[field];
    delete doc[field];
    if (previous !== undefined) changed = true;
  }
  return changed;
}

function inc(fields: string[], values: Record<string, unknown>, doc: Record<string, unknown>): boolean {
  let changed = false;
  for (const field of fields) {
    const previous = doc[field];
    // mingo leaves any other value (NaN included) as it is.
    if (previous !== undefined && (typeof previous !== 'number' || Number.isNaN(previous))) continue;
    const next = (previous || 0) + (values[field] as number);
    doc[field] = next;
    if (next !== previous) changed = true;
  }
  return changed;
}

/** Checks every field before changing any, so a push it cannot do is left whole to mingo. */
function push(fields: string[], values: Record<string, unknown>, doc: Record<string, unknown>): boolean | undefined {
  const plans: Array<{ field: string; each: unknown[]; slice?: number }> = [];
  for (const field of fields) {
    const value = values[field];
    if (doc[field] !== undefined && !Array.isArray(doc[field])) return undefined;
    const modified = isPlain(value) && PUSH_MODIFIERS.some((m) => own(value, m));
    if (!modified) {
      plans.push({ field, each: [value] });
      continue;
    }
    const { $each, $slice, $sort, $position } = value as Record<string, unknown>;
    if ($sort !== undefined || $position !== undefined || !Array.isArray($each)) return undefined;
    if ($slice !== undefined && !Number.isInteger($slice)) return undefined;
    plans.push({ field, each: $each, slice: $slice as number | undefined });
  }
  let changed = false;
  for (const { field, each, slice } of plans) {
    const current = doc[field] as unknown[] | undefined;
    if (current === undefined) {
      doc[field] = each;
      changed = true;
      continue;
    }
    const next = current.concat(each);
    if (typeof slice === 'number') {
      if (slice < 0) next.splice(0, next.length + slice);
      else next.splice(slice);
    }
    doc[field] = next;
    // mingo's test of a change, kept as is: the length, else the array against its first `slice` elements before.
    if (current.length !== next.length || !isEqual(current.slice(0, slice || current.length), next)) changed = true;
  }
  return changed;
}

type Scalar = string | number | boolean;
const isScalar = (v: unknown): v is Scalar =>
  typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && !Number.isNaN(v));

/**
 * `$pull` of the documents whose top-level members equal a scalar or one of `$in`'s scalars (the
 * outbox relay's `{_outbox: {id: {$in: ids}}}`): every element a document whose tested members
 * are scalars or missing, else undefined. Checks every field before changing any.
 */
function pull(fields: string[], values: Record<string, unknown>, doc: Record<string, unknown>): boolean | undefined {
  const plans: Array<{ field: string; keep: unknown[] }> = [];
  for (const field of fields) {
    const matches = memberTest(values[field]);
    const current = doc[field];
    if (!matches || (current !== undefined && !Array.isArray(current))) return undefined;
    if (current === undefined) continue;
    const keep: unknown[] = [];
    for (const element of current) {
      const matched = isPlain(element) ? matches(element) : undefined;
      if (matched === undefined) return undefined;
      if (!matched) keep.push(element);
    }
    if (keep.length !== current.length) plans.push({ field, keep });
  }
  for (const { field, keep } of plans) doc[field] = keep;
  return plans.length > 0;
}

/**
 * A test of a document's members against `{name: scalar | {$in: scalars}}`; undefined for any other condition or
 * member.
 */
function memberTest(condition: unknown): ((element: Record<string, unknown>) => boolean | undefined) | undefined {
  if (!isPlain(condition)) return undefined;
  const tests: Array<[string, Scalar[]]> = [];
  for (const [name, wanted] of Object.entries(condition)) {
    if (name === '' || name === '__proto__' || name.includes('.') || name.startsWith('$')) return undefined;
    if (isScalar(wanted)) tests.push([name, [wanted]]);
    else if (
      isPlain(wanted) && Object.keys(wanted).length === 1 && Array.isArray(wanted.$in) && wanted.$in.every(isScalar)
    ) tests.push([name, wanted.$in]);
    else return undefined;
  }
  if (tests.length === 0) return undefined;
  return (element) => {
    let all = true;
    for (const [name, allowed] of tests) {
      const value = element[name];
      if (value !== undefined && !isScalar(value)) return undefined;
      if (value === undefined || !allowed.includes(value)) all = false;
    }
    return all;
  };
}
