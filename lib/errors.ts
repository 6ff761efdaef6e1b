/**
 * The one error type every service raises. Codes are a closed set and part of the
 * API contract; the gRPC status for each lives here, the HTTP status only in the gateway.
 */
export const ERROR_CODES = [
  // 400
  'INVALID_INPUT', 'END_USER_TERMS_VERSION_NOT_FOUND', 'MISSING_MANDATORY_USER_INFO',
  'INVALID_UMA_ADDRESS', 'QUOTE_REQUEST_FAILED', 'INVALID_RECEIVER', 'SENDER_NOT_ACCEPTED', 'MISSING_REQUIRED_UMA_PARAMETERS',
  'AMOUNT_OUT_OF_RANGE', 'INVALID_CURRENCY', 'INVALID_TIMESTAMP', 'INVALID_NONCE',
  'INVALID_REQUEST_FORMAT', 'INVALID_BANK_ACCOUNT', 'SELF_PAYMENT', 'LOOKUP_REQUEST_FAILED',
  'INVALID_AMOUNT', 'WEBHOOK_ENDPOINT_NOT_SET', 'WEBHOOK_DELIVERY_ERROR',
  'LOW_QUALITY', 'DATA_MISMATCH', 'EXPIRED', 'SUSPECTED_FRAUD', 'UNSUITABLE_DOCUMENT', 'INCOMPLETE',
  'EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS', 'SMS_OTP_CREDENTIAL_ALREADY_EXISTS',
  'PASSKEY_CREDENTIAL_ALREADY_EXISTS', 'TRANSACTION_SIZE_LIMIT_EXCEEDED',
  'EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED', 'LAST_CREDENTIAL',
  'INSUFFICIENT_BALANCE', 'INVALID_STATE', 'END_USER_TERMS_NOT_ACCEPTED',
  'INVITATION_ALREADY_CLAIMED', 'INVITATIONS_NOT_CONFIGURED', 'INVITATION_CANCELLED', 'INVITATION_EXPIRED',
  'STABLECOIN_PROVIDER_ACCOUNT_INVALID', 'STABLECOIN_PROVIDER_ACCOUNT_REVOKED', 'STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED',
  'CARDHOLDER_KYC_NOT_APPROVED', 'FUNDING_SOURCE_INELIGIBLE',
  // 401
  'UNAUTHORIZED', 'INVALID_SIGNATURE', 'WALLET_SIGNATURE_MISSING', 'WALLET_SIGNATURE_MALFORMED',
  'WALLET_SIGNATURE_BODY_MISMATCH', 'WALLET_SIGNATURE_INVALID', 'REQUEST_ID_MISSING',
  'REQUEST_ID_ALREADY_USED', 'SIGNED_RETRY_EXPIRED',
  // 403
  'FORBIDDEN', 'VELOCITY_LIMIT_EXCEEDED', 'USER_NOT_READY',
  // 408 (the gateway's HTTP server: a request not received in time)
  'REQUEST_TIMEOUT',
  // 404
  'NOT_FOUND', 'TRANSACTION_NOT_FOUND', 'USER_NOT_FOUND', 'QUOTE_NOT_FOUND',
  'LOOKUP_REQUEST_NOT_FOUND', 'TOKEN_NOT_FOUND', 'REFERENCE_NOT_FOUND', 'UMA_NOT_FOUND', 'INVITATION_NOT_FOUND', 'BULK_UPLOAD_JOB_NOT_FOUND',
  'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND',
  // 405 (the gateway: a path served, but not with this method)
  'METHOD_NOT_ALLOWED',
  // 410
  'CUSTOMER_DELETED',
  // 409
  'CONFLICT', 'SCA_SESSION_REQUIRED', 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL', 'TRANSACTION_NOT_CANCELLABLE',
  'PASSKEY_ALREADY_ENROLLED', 'BENEFICIARY_TRUSTED',
  'INVALID_STATE_TRANSITION', 'CARD_ALREADY_CLOSED', 'CARD_NOT_MUTABLE',
  // 412
  'UNSUPPORTED_UMA_VERSION',
  // 422 (ours: the reference names no code; docs/idempotency.md)
  'IDEMPOTENCY_KEY_REUSED',
  // 423
  'ACCOUNT_LOCKED',
  // 424
  'PAYREQ_REQUEST_FAILED', 'COUNTERPARTY_PUBKEY_FETCH_ERROR', 'NO_COMPATIBLE_UMA_VERSION',
  'LNURLP_REQUEST_FAILED', 'EMAIL_OTP_CREDENTIAL_SYNC_FAILED',
  // 429
  'DAILY_VOLUME_LIMIT_EXCEEDED', 'RATE_LIMITED',
  // 431 (the gateway's HTTP server: headers over its limit)
  'REQUEST_HEADERS_TOO_LARGE',
  // 500 / 501 / 503
  'INTERNAL_ERROR', 'SERVICE_SWITCH_ERROR', 'NOT_IMPLEMENTED', 'UNAVAILABLE',
  // 503: the data store's disk is full (retry after details.retryAfterSeconds)
  'STORAGE_FULL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

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
    return new AppError('INVALID_INPUT', message, omitted > 0 ? { errors: errors.slice(0, MAX_FIELD_ERRORS), omittedErrors: omitted } : { errors });
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
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
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
