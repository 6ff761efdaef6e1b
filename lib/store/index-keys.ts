import { EMPTY_ARRAY } from './bson-compare';

/** The top-level field a dotted path starts with. */
export const topField = (path: string): string => path.split('.', 1)[0];

/**
 * The values a document holds at a dotted path, expanded through arrays the way MongoDB builds
 * multikey index keys and sort keys: each element of an array is a separate value, an empty
 * array is EMPTY_ARRAY, and a missing field is null.
 */
export function pathValues(doc: unknown, path: string): unknown[] {
  const out: unknown[] = [];
  collect(doc, path.split('.'), 0, out);
  return out.length === 0 ? [null] : out;
}

function collect(value: unknown, parts: string[], depth: number, out: unknown[]): void {
  if (depth === parts.length) {
    if (!Array.isArray(value)) out.push(value === undefined ? null : value);
    else if (value.length === 0) out.push(EMPTY_ARRAY);
    else out.push(...value);
    return;
  }
  const part = parts[depth];
  if (Array.isArray(value)) {
    if (/^\d+$/.test(part)) {
      collect(value[Number(part)], parts, depth + 1, out);
      return;
    }
    for (const element of value) {
      if (isPlainObject(element)) collect(element, parts, depth, out);
    }
    return;
  }
  if (isPlainObject(value) && value[part] !== undefined) collect(value[part], parts, depth + 1, out);
}

/**
 * The keys a document contributes to an index on `fields`, each a stable string, deduplicated.
 * A compound index takes the product of its fields' values; like MongoDB, at most one field
 * may hold an array.
 */
export function indexKeys(doc: unknown, fields: readonly string[]): string[] {
  const perField = fields.map((field) => pathValues(doc, field));
  if (perField.filter((values) => values.length > 1).length > 1) {
    throw new Error(`cannot index parallel arrays [${fields.join(', ')}]`);
  }
  let keys = [''];
  perField.forEach((values, i) => {
    const serialized = values.map(serializeValue);
    keys = keys.flatMap((prefix) => serialized.map((value) => (i === 0 ? value : `${prefix},${value}`)));
  });
  return keys.length === 1 ? keys : [...new Set(keys)];
}

/**
 * A self-delimiting string that is equal for two values exactly when MongoDB treats them as the
 * same index key. Object key order is kept because BSON documents compare field by field in order.
 */
export function serializeValue(value: unknown): string {
  if (value === null || value === undefined) return 'n';
  if (value === EMPTY_ARRAY) return 'u';
  switch (typeof value) {
    case 'number':
      return `d${Object.is(value, -0) ? 0 : value}`;
    case 'bigint':
      return `d${value}`;
    case 'string':
      return `s${JSON.stringify(value)}`;
    case 'boolean':
      return value ? 'b1' : 'b0';
    case 'object':
      if (Array.isArray(value)) return `[${value.map(serializeValue).join(',')}]`;
      if (value instanceof Date) return `t${value.getTime()}`;
      if (value instanceof Uint8Array) {
        return `x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
      }
      if (value instanceof RegExp) return `r${JSON.stringify(String(value))}`;
      return `{${
        Object.entries(value)
          .map(([key, field]) => `${JSON.stringify(key)}:${serializeValue(field)}`)
          .join(',')
      }}`;
    default:
      return `?${JSON.stringify(String(value))}`;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
