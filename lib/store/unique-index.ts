import type { Doc, Filter } from './document-store';
import { indexKeys, topField } from './index-keys';
import { mingoEngine } from './mingo-engine';

/** A unique index of the embedded store: index key → the stored key of the document holding it. */
export class UniqueIndex {
  readonly entries = new Map<string, string>();
  readonly fields: readonly string[];
  private readonly partial?: { test(doc: unknown): boolean };

  /** The top-level fields its keys depend on; undefined when a partial filter's shape hides them. */
  readonly reads: readonly string[] | undefined;

  /**
   * Whether every document holding a value at each key path is in the index: it has no partial
   * filter, or one that only asks that key paths exist (`{'quote.id': {$exists: true}}`).
   */
  readonly holdsEveryKeyed: boolean;

  constructor(readonly name: string, keys: Record<string, 1 | -1>, readonly partialFilter?: Filter) {
    this.fields = Object.keys(keys);
    if (partialFilter) this.partial = mingoEngine.compileFilter(partialFilter);
    const paths = [...this.fields, ...Object.keys(partialFilter ?? {})];
    this.reads = paths.some((path) => path.startsWith('$')) ? undefined : [...new Set(paths.map(topField))];
    this.holdsEveryKeyed = Object.entries(partialFilter ?? {})
      .every(([path, condition]) => this.fields.includes(path) && isExistence(condition));
  }

  /** Keys the document contributes; none when a partial index's filter does not match it. */
  keysOf(doc: Doc): string[] {
    if (this.partial && !this.partial.test(doc)) return [];
    return indexKeys(doc, this.fields);
  }
}

function isExistence(condition: unknown): boolean {
  if (typeof condition !== 'object' || condition === null) return false;
  return Object.keys(condition).length === 1 && (condition as { $exists?: unknown }).$exists === true;
}
