import { AppError } from './errors';
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  decodePageCursor,
  encodePageCursor,
  nextPageCursor,
  pageLimit,
  pageLimitError,
  pageQuery,
} from './page-cursor';

const position = { createdAt: '2025-01-02T03:04:05.678Z', id: 'Customer:00000000-0000-4000-8000-000000000001' };
const invalidCursor = {
  code: 'INVALID_INPUT',
  message: 'Invalid cursor',
  details: { errors: [{ field: 'cursor', message: 'is not a cursor returned by this API' }] },
};

function thrown(run: () => unknown): AppError {
  try {
    run();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected an AppError');
}

test('a cursor decodes to the position it was made from and is URL-safe', () => {
  const cursor = encodePageCursor(position);
  expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
  expect(decodePageCursor(cursor)).toEqual(position);
});

test.each([
  ['not base64 JSON', 'garbage'],
  ['an empty string', ''],
  ['a JSON object', Buffer.from(JSON.stringify({ c: position.createdAt, i: position.id })).toString('base64url')],
  ['a one-member array', Buffer.from(JSON.stringify([position.createdAt])).toString('base64url')],
  ['an array of numbers', Buffer.from(JSON.stringify([1, 2])).toString('base64url')],
])('%s is not a cursor: one INVALID_INPUT wording', (_name, cursor) => {
  expect(thrown(() => decodePageCursor(cursor))).toMatchObject(invalidCursor);
});

test('limit: 0 means the default; 1..100 are kept; anything else is INVALID_INPUT', () => {
  expect([pageLimit(0), pageLimit(1), pageLimit(MAX_PAGE_SIZE)]).toEqual([DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE]);
  for (const bad of [-1, 101, 1.5, Number.NaN]) {
    expect(thrown(() => pageLimit(bad))).toMatchObject({
      code: 'INVALID_INPUT',
      message: 'Invalid limit',
      details: { errors: [{ field: 'limit', message: 'must be an integer between 1 and 100' }] },
    });
  }
  expect([pageLimitError(undefined), pageLimitError(0), pageLimitError(100)]).toEqual([
    undefined,
    undefined,
    undefined,
  ]);
  expect(pageLimitError(101)).toEqual({ field: 'limit', message: 'must be an integer between 1 and 100' });
});

test('pageQuery checks the limit before the cursor, and decodes the cursor when one is given', () => {
  expect(pageQuery(0, undefined)).toEqual({ limit: DEFAULT_PAGE_SIZE });
  expect(pageQuery(5, encodePageCursor(position))).toEqual({ limit: 5, after: position });
  expect(thrown(() => pageQuery(101, 'garbage')).message).toBe('Invalid limit');
  expect(thrown(() => pageQuery(5, 'garbage'))).toMatchObject(invalidCursor);
});

test('the next cursor points after the last item, only while there are more', () => {
  const other = { createdAt: '2025-01-01T00:00:00.000Z', id: 'Customer:00000000-0000-4000-8000-000000000000' };
  expect(decodePageCursor(nextPageCursor([other, position], true)!)).toEqual(position);
  expect(nextPageCursor([other, position], false)).toBeUndefined();
  expect(nextPageCursor([], true)).toBeUndefined();
});
