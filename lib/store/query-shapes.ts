import type { Doc, Projection } from './document-store';
import { scalarValue } from './field-index';
import { isPlainObject } from './index-keys';

/** Shapes of a query both embedded engines recognise, to answer it from an index instead of a scan. */

/** The projected fields of a stored document (still shared with it: the caller copies). */
export function projected(doc: Doc, projection: Projection | undefined): Doc {
  if (!projection) return doc;
  const picked: Doc = { _id: doc._id };
  for (const field of Object.keys(projection)) {
    if (field.includes('.') || projection[field] !== 1) {
      throw new Error(`unsupported projection of ${field}: top-level inclusions only`);
    }
    if (field in doc) picked[field] = doc[field];
  }
  return picked;
}

/** `_id` values an `_id` condition pins by equality (`x`, `{$eq: x}`, `{$in: [...]}`), if it does. */
export function idEqualities(condition: unknown): unknown[] | undefined {
  const single = scalarEquality(condition);
  if (single !== undefined) return [single];
  if (isPlainObject(condition) && Object.keys(condition).length === 1 && Array.isArray(condition.$in)) {
    const values = condition.$in.map(scalarEquality);
    return values.every((value) => value !== undefined) ? values : undefined;
  }
  return undefined;
}

/** A string, finite number or boolean an equality condition requires, else undefined. */
export function scalarEquality(condition: unknown): string | number | boolean | undefined {
  return scalarValue(
    isPlainObject(condition) && Object.keys(condition).length === 1 && '$eq' in condition ? condition.$eq : condition,
  );
}
