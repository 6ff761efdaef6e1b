import { AppError, type FieldError } from './errors';

/** Page size when a request gives `limit` 0 (absent). */
export const DEFAULT_PAGE_SIZE = 20;
/** Largest `limit` a request may give. */
export const MAX_PAGE_SIZE = 100;

/** Where a page ended: the last record's creation time and id (records are listed by both). */
export interface PagePosition {
  createdAt: string;
  id: string;
}

/** A validated page request: how many records, and after which one. */
export interface PageQuery {
  limit: number;
  after?: PagePosition;
}

/** The INVALID_INPUT every list answers for a cursor it did not hand out. */
export function invalidCursor(): AppError {
  return AppError.invalidInput('Invalid cursor', [{
    field: 'cursor',
    message: 'is not a cursor returned by this API',
  }]);
}

/** Opaque to clients: base64url of the position. */
export function encodePageCursor(position: PagePosition): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id]), 'utf8').toString('base64url');
}

export function decodePageCursor(cursor: string): PagePosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'string')) {
      return { createdAt: value[0], id: value[1] };
    }
  } catch {
    // falls through to the error below
  }
  throw invalidCursor();
}

function isPageLimit(limit: number): boolean {
  return Number.isInteger(limit) && limit >= 0 && limit <= MAX_PAGE_SIZE;
}

function limitFieldError(): FieldError {
  return { field: 'limit', message: `must be an integer between 1 and ${MAX_PAGE_SIZE}` };
}

/**
 * The problem with `limit`, if any, for callers that collect every problem: absent or 0 means the default; otherwise
 * 1..100.
 */
export function pageLimitError(limit: number | undefined): FieldError | undefined {
  return limit === undefined || isPageLimit(limit) ? undefined : limitFieldError();
}

/** `limit` 0 means 20; otherwise 1..100. */
export function pageLimit(limit: number): number {
  if (!isPageLimit(limit)) throw AppError.invalidInput('Invalid limit', [limitFieldError()]);
  return limit || DEFAULT_PAGE_SIZE;
}

/** The validated limit and, when a cursor is given, the position it stands for. */
export function pageQuery(limit: number, cursor: string | undefined): PageQuery {
  return { limit: pageLimit(limit), ...(cursor ? { after: decodePageCursor(cursor) } : {}) };
}

/** The cursor of the page after `items`, when there is one. */
export function nextPageCursor(items: readonly PagePosition[], hasMore: boolean): string | undefined {
  const last = items[items.length - 1];
  return hasMore && last ? encodePageCursor(last) : undefined;
}

/** Mongo filter for records after `position` in (createdAt, id) order. */
export function afterPosition(
  position: PagePosition | undefined,
  order: 'asc' | 'desc' = 'asc',
): Record<string, unknown> {
  if (!position) return {};
  const op = order === 'asc' ? '$gt' : '$lt';
  return {
    $or: [{ createdAt: { [op]: position.createdAt } }, { createdAt: position.createdAt, _id: { [op]: position.id } }],
  };
}
