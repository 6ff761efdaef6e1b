import { AppError } from './errors';

/** Where a page ended: the last record's creation time and id (records are listed by both). */
export interface PagePosition {
  createdAt: string;
  id: string;
}

/** Opaque to clients: base64url of the position. */
export function encodePageCursor(position: PagePosition): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id]), 'utf8').toString('base64url');
}

export function decodePageCursor(cursor: string): PagePosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'string')) return { createdAt: value[0], id: value[1] };
  } catch {
    // falls through to the error below
  }
  throw AppError.invalidInput('Invalid cursor', [{ field: 'cursor', message: 'must be a nextCursor returned by a previous page' }]);
}

/** `limit` 0 means 20; otherwise 1..100. */
export function pageLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 0 || limit > 100) throw AppError.invalidInput('Invalid limit', [{ field: 'limit', message: 'must be an integer between 1 and 100' }]);
  return limit || 20;
}

/** Mongo filter for records after `position` in (createdAt, id) order. */
export function afterPosition(position: PagePosition | undefined, order: 'asc' | 'desc' = 'asc'): Record<string, unknown> {
  if (!position) return {};
  const op = order === 'asc' ? '$gt' : '$lt';
  return { $or: [{ createdAt: { [op]: position.createdAt } }, { createdAt: position.createdAt, _id: { [op]: position.id } }] };
}
