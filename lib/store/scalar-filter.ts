import { compareStrings } from './bson-compare';

/** A compiled filter: whether a document matches, or undefined for a shape only mingo answers. */
export type ScalarTest = (doc: unknown) => boolean | undefined;

/** What a document holds at a path: whether the path resolves, and the values a condition meets there. */
interface Found {
  present: boolean;
  /** The value, or the elements of an array value (one level, as MongoDB expands a path's last array). */
  values: readonly unknown[];
  /**
   * Whether no value is one a number may equal or order with in ways not modelled (64-bit integers, NaN, class
   * instances); asked once.
   */
  plainNumbers?: boolean;
}

type Scalar = string | number | boolean;
/** Whether the values meet a condition, or undefined when only mingo can tell. */
type Condition = (found: Found) => boolean | undefined;

const NOTHING: Found = { present: false, values: [] };
const RANGES: Record<string, (order: number) => boolean> = {
  $gt: (order) => order > 0,
  $gte: (order) => order >= 0,
  $lt: (order) => order < 0,
  $lte: (order) => order <= 0,
};

const isScalar = (v: unknown): v is Scalar =>
  typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
const isPlain = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;
const own = (o: Record<string, unknown>, key: string) => Object.prototype.hasOwnProperty.call(o, key);

/**
 * Compiles a filter made of conditions on field paths with string, number and boolean operands
 * (`v`, `$eq`, `$ne`, `$gt`, `$gte`, `$lt`, `$lte`, `$in`, `$nin`, `$exists`), combined by
 * `$and`/`$or`: the shape of point reads and conditional writes. Returns undefined for any other
 * filter.
 *
 * The test answers undefined for a document whose values it does not model: a path through an
 * array (except a last numeric step into an array of scalars) or a non-plain object, and, for a
 * number operand, 64-bit integers, NaN, infinities and class instances other than dates. Everything else follows
 * MongoDB: a scalar operand meets only values of its own type (no null, object, array or date equals or
 * orders with it), an array's elements are met one by one, each operator of a condition may be
 * met by a different element, `$ne`/`$nin` match what `$eq`/`$in` do not (missing fields
 * included), and strings order by code point.
 */
export function compileScalarFilter(filter: Record<string, unknown>): ScalarTest | undefined {
  const clauses: ScalarTest[] = [];
  for (const [key, condition] of Object.entries(filter)) {
    let clause: ScalarTest | undefined;
    if (key === '$and' || key === '$or') clause = compileBranches(key, condition);
    else if (key !== '' && !key.startsWith('$')) clause = compilePath(key, condition);
    if (!clause) return undefined;
    clauses.push(clause);
  }
  return combine(clauses, false);
}

function compileBranches(op: '$and' | '$or', branches: unknown): ScalarTest | undefined {
  if (!Array.isArray(branches) || branches.length === 0 || !branches.every(isPlain)) return undefined;
  const tests: ScalarTest[] = [];
  for (const branch of branches) {
    const test = compileScalarFilter(branch);
    if (!test) return undefined;
    tests.push(test);
  }
  return combine(tests, op === '$or');
}

/**
 * All of `tests` (`settling` false) or any of them (true). One definite answer equal to `settling`
 * decides, whatever mingo would say of the tests that could not answer.
 */
function combine(tests: ScalarTest[], settling: boolean): ScalarTest {
  return (doc) => {
    let unknown = false;
    for (const test of tests) {
      const answer = test(doc);
      if (answer === settling) return settling;
      if (answer === undefined) unknown = true;
    }
    return unknown ? undefined : !settling;
  };
}

function compilePath(path: string, condition: unknown): ScalarTest | undefined {
  const conditions = compileCondition(condition);
  if (!conditions) return undefined;
  const parts = path.split('.');
  if (parts.some((part) => part === '')) return undefined;
  return (doc) => {
    const found = resolve(doc, parts);
    if (!found) return undefined;
    let unknown = false;
    for (const test of conditions) {
      const answer = test(found);
      if (answer === false) return false;
      if (answer === undefined) unknown = true;
    }
    return unknown ? undefined : true;
  };
}

function compileCondition(condition: unknown): Condition[] | undefined {
  if (isScalar(condition)) return [equals(condition)];
  if (!isPlain(condition)) return undefined;
  const operators = Object.keys(condition);
  if (operators.length === 0) return undefined;
  const conditions: Condition[] = [];
  for (const op of operators) {
    const operand = condition[op];
    if (op === '$eq' && isScalar(operand)) conditions.push(equals(operand));
    else if (op === '$ne' && isScalar(operand)) conditions.push(not(equals(operand)));
    else if (
      op in RANGES && (typeof operand === 'string' || (typeof operand === 'number' && Number.isFinite(operand)))
    ) conditions.push(range(RANGES[op], operand));
    else if (op === '$in' && Array.isArray(operand) && operand.every(isScalar)) conditions.push(within(operand));
    else if (op === '$nin' && Array.isArray(operand) && operand.every(isScalar)) conditions.push(not(within(operand)));
    else if (op === '$exists' && typeof operand === 'boolean') conditions.push((found) => found.present === operand);
    else return undefined;
  }
  return conditions;
}

/** A string or boolean operand meets only strings or booleans; a number may meet values not modelled, checked then. */
function numbersModelled(found: Found): boolean {
  found.plainNumbers ??= found.values.every(modelled);
  return found.plainNumbers;
}

const equals = (operand: Scalar): Condition => (found) =>
  typeof operand === 'number' && !numbersModelled(found) ? undefined : found.values.includes(operand);

const not = (condition: Condition): Condition => (found) => {
  const answer = condition(found);
  return answer === undefined ? undefined : !answer;
};

/** A few operands against a long array (a window of markers): each operand is looked for with `includes`. */
const FEW_OPERANDS = 8;

function within(operands: Scalar[]): Condition {
  const set = new Set<unknown>(operands);
  const numeric = operands.some((operand) => typeof operand === 'number');
  const holds = (
    values: readonly unknown[],
  ) => (operands.length <= FEW_OPERANDS && values.length > operands.length
    ? operands.some((operand) => values.includes(operand))
    : values.some((value) => set.has(value)));
  return (found) => (numeric && !numbersModelled(found) ? undefined : holds(found.values));
}

function range(holds: (order: number) => boolean, operand: string | number): Condition {
  if (typeof operand === 'number') {
    return (found) =>
      numbersModelled(found)
        ? found.values.some((value) =>
          typeof value === 'number' && holds(value < operand ? -1 : value > operand ? 1 : 0)
        )
        : undefined;
  }
  return (found) => found.values.some((value) => typeof value === 'string' && holds(compareStrings(value, operand)));
}

/** What `doc` holds at `parts`, or undefined for a shape left to mingo. */
function resolve(doc: unknown, parts: readonly string[]): Found | undefined {
  let current: unknown = doc;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (isPlain(current)) {
      if (!own(current, part)) return NOTHING;
      current = current[part];
    } else if (Array.isArray(current)) {
      // `list.N` as the last step into scalars: the element at N (no element can hold a field N).
      if (i !== parts.length - 1 || !/^\d+$/.test(part) || !current.every((v) => v === null || typeof v !== 'object')) {
        return undefined;
      }
      current = own(current as unknown as Record<string, unknown>, part) ? current[Number(part)] : undefined;
    } else if (current === null || typeof current !== 'object') {
      return NOTHING;
    } else {
      return undefined;
    }
    if (current === undefined) return NOTHING;
  }
  return { present: true, values: Array.isArray(current) ? current : [current] };
}

/** Values a scalar operand is compared with exactly: null, scalars, plain objects, arrays and dates. */
function modelled(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value === 'bigint') return false;
  if (typeof value !== 'object') return true;
  return Array.isArray(value) || isPlain(value) || value instanceof Date;
}
