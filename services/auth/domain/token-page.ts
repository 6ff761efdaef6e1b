import { AppError } from '../../../lib/errors';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface PagePosition {
  createdAt: string;
  id: string;
}

/** Opaque to clients: base64url of the last token's creation time and id. */
export function encodeCursor(position: PagePosition): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id]), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): PagePosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'string')) return { createdAt: value[0], id: value[1] };
  } catch {
    // falls through to the error below
  }
  throw AppError.invalidInput('Invalid cursor', [{ field: 'cursor', message: 'is not a cursor returned by this API' }]);
}

/** `limit` 0 means the default; otherwise 1..100. */
export function pageSize(limit: number): number {
  if (!Number.isInteger(limit) || limit < 0 || limit > MAX_PAGE_SIZE) {
    throw AppError.invalidInput('Invalid limit', [{ field: 'limit', message: `must be an integer between 1 and ${MAX_PAGE_SIZE}` }]);
  }
  return limit || DEFAULT_PAGE_SIZE;
}

/** An ISO 8601 timestamp filter, or undefined when absent. */
export function timestampFilter(value: string | undefined, field: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw AppError.invalidInput('Invalid filter', [{ field, message: 'must be an ISO 8601 date-time', constraint: { format: 'date-time' } }]);
  return new Date(ms).toISOString();
}
