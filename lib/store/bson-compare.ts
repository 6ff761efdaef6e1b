/**
 * MongoDB's comparison order for the values JavaScript documents carry
 * (https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/):
 * empty array (in sort keys) < null and missing < numbers < strings < objects < arrays
 * < binary data < booleans < dates < regular expressions.
 */

/** Sort and index key of a field holding an empty array: MongoDB sorts it before null. */
export const EMPTY_ARRAY = Symbol('empty array');

export function compareBson(a: unknown, b: unknown): number {
  const rankA = typeRank(a);
  const rankB = typeRank(b);
  if (rankA !== rankB) return rankA < rankB ? -1 : 1;
  switch (rankA) {
    case 2:
      return compareNumbers(a as number | bigint, b as number | bigint);
    case 3:
      return compareStrings(a as string, b as string);
    case 4:
      return compareObjects(a as Record<string, unknown>, b as Record<string, unknown>);
    case 5:
      return compareArrays(a as unknown[], b as unknown[]);
    case 6:
      return compareBytes(a as Uint8Array, b as Uint8Array);
    case 8:
      return a === b ? 0 : a ? 1 : -1;
    case 9:
      return compareNumbers((a as Date).getTime(), (b as Date).getTime());
    case 10:
      return compareStrings(String(a), String(b));
    default:
      return 0;
  }
}

function typeRank(value: unknown): number {
  if (value === EMPTY_ARRAY) return 0;
  if (value === null || value === undefined) return 1;
  switch (typeof value) {
    case 'number':
    case 'bigint':
      return 2;
    case 'string':
      return 3;
    case 'boolean':
      return 8;
    case 'object':
      if (Array.isArray(value)) return 5;
      if (value instanceof Uint8Array) return 6;
      if (value instanceof Date) return 9;
      if (value instanceof RegExp) return 10;
      return 4;
    default:
      return 4;
  }
}

function compareNumbers(a: number | bigint, b: number | bigint): number {
  // NaN sorts before every other number in MongoDB.
  const nanA = Number.isNaN(a);
  const nanB = Number.isNaN(b);
  if (nanA || nanB) return nanA === nanB ? 0 : nanA ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Binary (UTF-8 byte) order, which is code point order, not UTF-16 code unit order. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const unitA = a.charCodeAt(i);
    const unitB = b.charCodeAt(i);
    if (unitA !== unitB) return codePointRank(unitA) < codePointRank(unitB) ? -1 : 1;
  }
  return a.length < b.length ? -1 : 1;
}

// Surrogates (supplementary code points) must sort after U+E000..U+FFFF.
function codePointRank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

function compareObjects(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  const length = Math.min(keysA.length, keysB.length);
  for (let i = 0; i < length; i++) {
    const valueA = a[keysA[i]];
    const valueB = b[keysB[i]];
    const byType = typeRank(valueA) - typeRank(valueB);
    if (byType !== 0) return byType < 0 ? -1 : 1;
    const byName = compareStrings(keysA[i], keysB[i]);
    if (byName !== 0) return byName;
    const byValue = compareBson(valueA, valueB);
    if (byValue !== 0) return byValue;
  }
  return compareNumbers(keysA.length, keysB.length);
}

function compareArrays(a: unknown[], b: unknown[]): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const byValue = compareBson(a[i], b[i]);
    if (byValue !== 0) return byValue;
  }
  return compareNumbers(a.length, b.length);
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return Buffer.compare(a, b);
}
