import { isPlainObject } from './index-keys';

/**
 * A deep copy, so stored state never aliases a caller's objects. `undefined` becomes null, as
 * the MongoDB driver serializes it by default (ignoreUndefined: false).
 */
export function cloneDocument<T>(value: T): T {
  return cloneValue(value) as T;
}

function cloneValue(value: unknown): unknown {
  if (value === undefined) return null;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const copy = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) copy[i] = cloneValue(value[i]);
    return copy;
  }
  if (isPlainObject(value)) {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) copy[key] = cloneValue(value[key]);
    return copy;
  }
  if (value instanceof Date) return new Date(value.getTime());
  if (Buffer.isBuffer(value)) return Buffer.from(value);
  if (value instanceof Uint8Array) return new Uint8Array(value);
  if (value instanceof RegExp) return new RegExp(value.source, value.flags);
  // Other class instances (e.g. BSON types such as Decimal128) are immutable values.
  return value;
}
