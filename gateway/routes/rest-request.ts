import type { Request } from 'express';
import { AppError, type FieldError } from '../../lib/errors';
import { idPattern, type IdType } from '../../lib/ids';
import { nonEmpty, withoutAbsent } from '../../lib/contract/json-members';

const MAX_LIMIT = 100;

/**
 * Reads path and query parameters of one request, collecting every problem, then `done()` throws
 * INVALID_INPUT listing them. An empty query value counts as absent.
 */
export class RestRequestReader {
  private readonly errors: FieldError[] = [];

  constructor(private readonly req: Request) {}

  query(name: string): string | undefined {
    const value = this.req.query[name];
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string') {
      this.errors.push({ field: name, message: 'must be given once' });
      return undefined;
    }
    return value;
  }

  /** `limit`: 1..100; 0 (absent) lets the service apply its default. */
  limit(): number {
    const value = this.query('limit');
    if (value === undefined) return 0;
    const n = /^\d{1,3}$/.test(value) ? Number(value) : NaN;
    if (!(n >= 1 && n <= MAX_LIMIT)) {
      this.errors.push({ field: 'limit', message: `must be an integer between 1 and ${MAX_LIMIT}` });
      return 0;
    }
    return n;
  }

  boolean(name: string): boolean {
    const value = this.query(name);
    if (value === undefined || value === 'false') return false;
    if (value === 'true') return true;
    this.errors.push({ field: name, message: 'must be true or false', constraint: { enum: ['true', 'false'] } });
    return false;
  }

  /** A path parameter that must be a `<Type>:<uuid>` id. */
  pathId(name: string, type: IdType): string {
    const value = String(this.req.params[name] ?? '');
    const pattern = idPattern(type);
    if (!new RegExp(pattern).test(value)) {
      this.errors.push({ field: name, message: `must be a ${type} id`, constraint: { pattern } });
    }
    return value;
  }

  done(): void {
    if (this.errors.length) throw AppError.invalidInput('Invalid request parameters', this.errors);
  }
}

/** The JSON helpers live in lib/contract with the renderers; re-exported for the routes. */
export { nonEmpty, withoutAbsent };

/** The reference's list envelope. */
export function listJson<T, J>(
  page: { hasMore: boolean; nextCursor?: string; totalCount: number },
  data: T[],
  encode: (item: T) => J,
) {
  return withoutAbsent({
    data: data.map(encode),
    hasMore: page.hasMore,
    nextCursor: page.nextCursor,
    totalCount: page.totalCount,
  });
}
