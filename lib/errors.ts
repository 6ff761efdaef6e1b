import { ERROR_CODE_TABLE } from './error-codes';

/**
 * The one error type every service raises. Codes are a closed set and part of the API contract:
 * each one's gRPC and HTTP status live in one table (error-codes.ts).
 */
export type ErrorCode = keyof typeof ERROR_CODE_TABLE;

export const ERROR_CODES = Object.keys(ERROR_CODE_TABLE) as readonly ErrorCode[];

export interface FieldError {
  field: string;
  message?: string;
  constraint?: { format?: string; pattern?: string; enum?: string[]; minLength?: number; maxLength?: number };
}

export type ErrorDetails = Record<string, unknown>;

/** The most field errors one INVALID_INPUT lists. */
export const MAX_FIELD_ERRORS = 100;

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AppError';
  }

  /**
   * Every invalid field, up to MAX_FIELD_ERRORS: a body can hold thousands of bad members, and an
   * answer listing them all would be larger than the request. `omittedErrors` counts the rest.
   */
  static invalidInput(message: string, errors?: FieldError[]): AppError {
    if (!errors?.length) return new AppError('INVALID_INPUT', message);
    const omitted = errors.length - MAX_FIELD_ERRORS;
    return new AppError(
      'INVALID_INPUT',
      message,
      omitted > 0 ? { errors: errors.slice(0, MAX_FIELD_ERRORS), omittedErrors: omitted } : { errors },
    );
  }

  /**
   * 404 with the interface's closed set of codes: a resource without a code of its own (an
   * account, a document, an agent, ...) is REFERENCE_NOT_FOUND. NOT_FOUND is left for a path no
   * operation serves.
   */
  static notFound(what: string, code: ErrorCode = 'REFERENCE_NOT_FOUND'): AppError {
    return new AppError(code, `${what} not found`);
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODE_TABLE, value);
}

/** Anything caught becomes an AppError; unknown failures become INTERNAL_ERROR (cause kept for the log). */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  return new AppError('INTERNAL_ERROR', 'An internal error occurred', undefined, { cause: err });
}

/** The codes meaning "no such record" (the record is absent, or another platform's). */
const ABSENT_CODES: readonly ErrorCode[] = ['NOT_FOUND', 'REFERENCE_NOT_FOUND', 'USER_NOT_FOUND'];

export function isAbsent(err: unknown): boolean {
  return err instanceof AppError && ABSENT_CODES.includes(err.code);
}

/**
 * A read that answers NOT_FOUND, REFERENCE_NOT_FOUND or USER_NOT_FOUND resolves to undefined (the
 * record is absent, or another platform's); any other failure still rejects.
 */
export async function unlessAbsent<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (err) {
    if (isAbsent(err)) return undefined;
    throw err;
  }
}
