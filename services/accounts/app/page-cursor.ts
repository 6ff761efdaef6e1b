import { AppError } from '../../../lib/errors';
import type { Page, PagePosition, PageQuery } from './accounts-store';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** Opaque to clients: base64url of the last record's creation time and id. */
export function encodeCursor(position: PagePosition): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id]), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): PagePosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'string')) {
      return { createdAt: value[0] as string, id: value[1] as string };
    }
  } catch {
    // falls through to the error below
  }
  throw AppError.invalidInput('Invalid cursor', [{ field: 'cursor', message: 'is not a cursor returned by this API' }]);
}

/** `limit` 0 means the default; otherwise 1..100. */
export function pageQuery(limit: number, cursor: string | undefined): PageQuery {
  if (!Number.isInteger(limit) || limit < 0 || limit > MAX_PAGE_SIZE) {
    throw AppError.invalidInput('Invalid limit', [{ field: 'limit', message: `must be an integer between 1 and ${MAX_PAGE_SIZE}` }]);
  }
  return { limit: limit || DEFAULT_PAGE_SIZE, ...(cursor ? { after: decodeCursor(cursor) } : {}) };
}

/** The cursor of the next page, when there is one. */
export function nextCursorOf<T extends { createdAt: string; id: string }>(page: Page<T>): string | undefined {
  const last = page.items[page.items.length - 1];
  return page.hasMore && last ? encodeCursor(last) : undefined;
}
