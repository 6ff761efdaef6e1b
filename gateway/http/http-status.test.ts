import { ERROR_CODE_TABLE } from '../../lib/error-codes';
import { ERROR_CODES } from '../../lib/errors';
import { httpStatusOf } from './http-status';

test('the HTTP mapping reads the one error-code table for every code', () => {
  for (const code of ERROR_CODES) expect(httpStatusOf(code)).toBe(ERROR_CODE_TABLE[code].http);
});

test.each(
  [
    ['INVALID_INPUT', 400],
    ['UNAUTHORIZED', 401],
    ['FORBIDDEN', 403],
    ['END_USER_TERMS_NOT_ACCEPTED', 403],
    ['USER_NOT_FOUND', 404],
    ['METHOD_NOT_ALLOWED', 405],
    ['REQUEST_TIMEOUT', 408],
    ['CONFLICT', 409],
    ['CUSTOMER_DELETED', 410],
    ['UNSUPPORTED_UMA_VERSION', 412],
    ['IDEMPOTENCY_KEY_REUSED', 422],
    ['ACCOUNT_LOCKED', 423],
    ['PAYREQ_REQUEST_FAILED', 424],
    ['RATE_LIMITED', 429],
    ['REQUEST_HEADERS_TOO_LARGE', 431],
    ['INTERNAL_ERROR', 500],
    ['NOT_IMPLEMENTED', 501],
    ['STORAGE_FULL', 503],
  ] as const,
)('%s answers %d', (code, http) => {
  expect(httpStatusOf(code)).toBe(http);
});
