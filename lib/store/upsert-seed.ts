import { cloneDocument } from './clone-document';
import type { Filter } from './document-store';
import { isPlainObject } from './index-keys';

/**
 * The document an upsert starts from when nothing matched: MongoDB copies the filter's equality
 * conditions (`field: value`, `field: {$eq: value}`, inside `$and` and a one-clause `$or`)
 * before applying the update operators.
 */
export function upsertSeed(filter: Filter): Record<string, unknown> {
  const seed: Record<string, unknown> = {};
  addEqualities(filter, seed);
  return seed;
}

function addEqualities(filter: Filter, seed: Record<string, unknown>): void {
  for (const [path, condition] of Object.entries(filter)) {
    if (path === '$and' && Array.isArray(condition)) {
      for (const clause of condition) addEqualities(clause as Filter, seed);
    } else if (path === '$or' && Array.isArray(condition) && condition.length === 1) {
      addEqualities(condition[0] as Filter, seed);
    } else if (!path.startsWith('$')) {
      const equality = equalityOf(condition);
      if (equality) setSeedPath(seed, path, cloneDocument(equality.value));
    }
  }
}

function equalityOf(condition: unknown): { value: unknown } | undefined {
  if (condition instanceof RegExp) return undefined;
  if (isPlainObject(condition)) {
    const operators = Object.keys(condition);
    if (operators.length > 0 && operators.every((key) => key.startsWith('$'))) {
      return '$eq' in condition ? { value: condition.$eq } : undefined;
    }
  }
  return { value: condition };
}

function setSeedPath(seed: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let container = seed;
  for (const part of parts.slice(0, -1)) {
    const next = container[part];
    if (next === undefined) container = container[part] = {};
    else if (isPlainObject(next)) container = next;
    else throw new Error(`cannot infer query fields to set, path '${path}' is matched twice`);
  }
  const last = parts[parts.length - 1];
  if (last in container) throw new Error(`cannot infer query fields to set, path '${path}' is matched twice`);
  container[last] = value;
}
