import { ERROR_CODE_TABLE } from '../../lib/error-codes';
import type { ErrorCode } from '../../lib/errors';

/** An error code's HTTP status, from the one error-code table (lib/error-codes.ts). */
export function httpStatusOf(code: ErrorCode): number {
  return ERROR_CODE_TABLE[code].http;
}
