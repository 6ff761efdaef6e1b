import { Metadata, status as GrpcStatus, type ServiceError, type StatusObject } from '@grpc/grpc-js';
import { Any } from '../../gen/google/protobuf/any';
import { BadRequest, ErrorInfo, Status } from '../../gen/google/rpc/status';
import { AppError, isErrorCode, type ErrorCode, type FieldError } from '../errors';

/**
 * AppError <-> gRPC status, in one table. The stable error code travels as the `reason` of a
 * google.rpc.ErrorInfo inside `grpc-status-details-bin` (the standard rich error model), so any
 * gRPC client can read it; the gateway turns it back into the exact REST status and code.
 */
const DOMAIN = 'grid.payments';

/** Metadata (headers and trailers) a call may carry: room for an error's whole field list. */
export const MAX_METADATA_BYTES = 1024 * 1024;
const DETAILS_KEY = 'grpc-status-details-bin';
const ERROR_INFO_TYPE = 'type.googleapis.com/google.rpc.ErrorInfo';
const BAD_REQUEST_TYPE = 'type.googleapis.com/google.rpc.BadRequest';

const GRPC_STATUS: Partial<Record<ErrorCode, GrpcStatus>> = {
  UNAUTHORIZED: GrpcStatus.UNAUTHENTICATED,
  INVALID_SIGNATURE: GrpcStatus.UNAUTHENTICATED,
  WALLET_SIGNATURE_MISSING: GrpcStatus.UNAUTHENTICATED,
  WALLET_SIGNATURE_MALFORMED: GrpcStatus.UNAUTHENTICATED,
  WALLET_SIGNATURE_BODY_MISMATCH: GrpcStatus.UNAUTHENTICATED,
  WALLET_SIGNATURE_INVALID: GrpcStatus.UNAUTHENTICATED,
  REQUEST_ID_MISSING: GrpcStatus.UNAUTHENTICATED,
  REQUEST_ID_ALREADY_USED: GrpcStatus.UNAUTHENTICATED,
  SIGNED_RETRY_EXPIRED: GrpcStatus.UNAUTHENTICATED,
  FORBIDDEN: GrpcStatus.PERMISSION_DENIED, VELOCITY_LIMIT_EXCEEDED: GrpcStatus.PERMISSION_DENIED,
  USER_NOT_READY: GrpcStatus.PERMISSION_DENIED,
  REQUEST_TIMEOUT: GrpcStatus.DEADLINE_EXCEEDED,
  NOT_FOUND: GrpcStatus.NOT_FOUND,
  TRANSACTION_NOT_FOUND: GrpcStatus.NOT_FOUND,
  USER_NOT_FOUND: GrpcStatus.NOT_FOUND,
  QUOTE_NOT_FOUND: GrpcStatus.NOT_FOUND,
  LOOKUP_REQUEST_NOT_FOUND: GrpcStatus.NOT_FOUND,
  TOKEN_NOT_FOUND: GrpcStatus.NOT_FOUND,
  REFERENCE_NOT_FOUND: GrpcStatus.NOT_FOUND,
  UMA_NOT_FOUND: GrpcStatus.NOT_FOUND,
  INVITATION_NOT_FOUND: GrpcStatus.NOT_FOUND,
  INVITATION_ALREADY_CLAIMED: GrpcStatus.FAILED_PRECONDITION,
  INVITATION_CANCELLED: GrpcStatus.FAILED_PRECONDITION,
  INVITATION_EXPIRED: GrpcStatus.FAILED_PRECONDITION,
  INVITATIONS_NOT_CONFIGURED: GrpcStatus.FAILED_PRECONDITION,
  BULK_UPLOAD_JOB_NOT_FOUND: GrpcStatus.NOT_FOUND,
  STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND: GrpcStatus.NOT_FOUND,
  CUSTOMER_DELETED: GrpcStatus.FAILED_PRECONDITION,
  CONFLICT: GrpcStatus.ALREADY_EXISTS,
  SCA_SESSION_REQUIRED: GrpcStatus.FAILED_PRECONDITION,
  PASSKEY_ALREADY_ENROLLED: GrpcStatus.FAILED_PRECONDITION,
  BENEFICIARY_TRUSTED: GrpcStatus.FAILED_PRECONDITION,
  TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL: GrpcStatus.FAILED_PRECONDITION,
  TRANSACTION_NOT_CANCELLABLE: GrpcStatus.FAILED_PRECONDITION,
  INVALID_STATE_TRANSITION: GrpcStatus.FAILED_PRECONDITION,
  CARD_ALREADY_CLOSED: GrpcStatus.FAILED_PRECONDITION,
  CARD_NOT_MUTABLE: GrpcStatus.FAILED_PRECONDITION,
  INSUFFICIENT_BALANCE: GrpcStatus.FAILED_PRECONDITION,
  END_USER_TERMS_NOT_ACCEPTED: GrpcStatus.PERMISSION_DENIED,
  UNSUPPORTED_UMA_VERSION: GrpcStatus.FAILED_PRECONDITION,
  ACCOUNT_LOCKED: GrpcStatus.FAILED_PRECONDITION,
  IDEMPOTENCY_KEY_REUSED: GrpcStatus.FAILED_PRECONDITION,
  PAYREQ_REQUEST_FAILED: GrpcStatus.UNAVAILABLE,
  COUNTERPARTY_PUBKEY_FETCH_ERROR: GrpcStatus.UNAVAILABLE,
  NO_COMPATIBLE_UMA_VERSION: GrpcStatus.UNAVAILABLE,
  LNURLP_REQUEST_FAILED: GrpcStatus.UNAVAILABLE,
  EMAIL_OTP_CREDENTIAL_SYNC_FAILED: GrpcStatus.UNAVAILABLE,
  DAILY_VOLUME_LIMIT_EXCEEDED: GrpcStatus.RESOURCE_EXHAUSTED,
  RATE_LIMITED: GrpcStatus.RESOURCE_EXHAUSTED,
  REQUEST_HEADERS_TOO_LARGE: GrpcStatus.INVALID_ARGUMENT,
  INTERNAL_ERROR: GrpcStatus.INTERNAL,
  SERVICE_SWITCH_ERROR: GrpcStatus.INTERNAL,
  NOT_IMPLEMENTED: GrpcStatus.UNIMPLEMENTED,
  UNAVAILABLE: GrpcStatus.UNAVAILABLE,
  STORAGE_FULL: GrpcStatus.RESOURCE_EXHAUSTED,
};

export function grpcStatusOf(code: ErrorCode): GrpcStatus {
  return GRPC_STATUS[code] ?? GrpcStatus.INVALID_ARGUMENT;
}

/** INVALID_INPUT's field list as the standard google.rpc.BadRequest, for any gRPC client. */
function badRequestDetail(error: AppError): Any[] {
  const errors = error.details?.errors as FieldError[] | undefined;
  if (error.code !== 'INVALID_INPUT' || !errors?.length) return [];
  const fieldViolations = errors.map((e) => ({ field: e.field, description: e.message ?? '', reason: Object.keys(e.constraint ?? {})[0] ?? '' }));
  return [Any.fromPartial({ typeUrl: BAD_REQUEST_TYPE, value: Buffer.from(BadRequest.encode({ fieldViolations }).finish()) })];
}

/** Internal errors are sent without their cause; the cause is logged by the caller. */
export function toStatusObject(error: AppError): Partial<StatusObject> {
  const info = ErrorInfo.encode({
    reason: error.code,
    domain: DOMAIN,
    metadata: error.details ? { details: JSON.stringify(error.details) } : {},
  }).finish();
  const code = grpcStatusOf(error.code);
  const body = Status.encode({
    code,
    message: error.message,
    details: [Any.fromPartial({ typeUrl: ERROR_INFO_TYPE, value: Buffer.from(info) }), ...badRequestDetail(error)],
  }).finish();
  const metadata = new Metadata();
  metadata.set(DETAILS_KEY, Buffer.from(body));
  return { code, details: error.message, metadata };
}

const FALLBACK: Partial<Record<GrpcStatus, ErrorCode>> = {
  [GrpcStatus.UNAVAILABLE]: 'UNAVAILABLE',
  [GrpcStatus.DEADLINE_EXCEEDED]: 'UNAVAILABLE',
  [GrpcStatus.UNAUTHENTICATED]: 'UNAUTHORIZED',
  [GrpcStatus.NOT_FOUND]: 'NOT_FOUND',
  [GrpcStatus.INVALID_ARGUMENT]: 'INVALID_INPUT',
};

function readErrorInfo(metadata: Metadata | undefined): ErrorInfo | undefined {
  const raw = metadata?.get(DETAILS_KEY)[0];
  if (!Buffer.isBuffer(raw)) return undefined;
  try {
    const status = Status.decode(raw);
    const any = status.details.find((d) => d.typeUrl === ERROR_INFO_TYPE);
    return any ? ErrorInfo.decode(any.value) : undefined;
  } catch {
    return undefined;
  }
}

/** Turns a failed call's ServiceError back into the AppError the server raised. */
export function fromServiceError(err: ServiceError): AppError {
  const info = readErrorInfo(err.metadata);
  if (info && isErrorCode(info.reason)) {
    let details: Record<string, unknown> | undefined;
    try {
      details = info.metadata.details ? JSON.parse(info.metadata.details) : undefined;
    } catch {
      details = undefined;
    }
    return new AppError(info.reason, err.details || info.reason, details);
  }
  const code = FALLBACK[err.code as GrpcStatus] ?? 'INTERNAL_ERROR';
  const message = code === 'UNAVAILABLE' ? 'A dependent service is unavailable' : 'An internal error occurred';
  return new AppError(code, message, undefined, { cause: err });
}
