import { Metadata, status as GrpcStatus, type ServiceError, type StatusObject } from '@grpc/grpc-js';
import { Any } from '../../gen/google/protobuf/any';
import { BadRequest, ErrorInfo, Status } from '../../gen/google/rpc/status';
import { ERROR_CODE_TABLE } from '../error-codes';
import { AppError, isErrorCode, type ErrorCode, type FieldError } from '../errors';

/**
 * AppError <-> gRPC status, each code's from the one table (lib/error-codes.ts). The stable error
 * code travels as the `reason` of a google.rpc.ErrorInfo inside `grpc-status-details-bin` (the
 * standard rich error model), so any gRPC client can read it; the gateway turns it back into the
 * exact REST status and code.
 */
const DOMAIN = 'grid.payments';

/** Metadata (headers and trailers) a call may carry: room for an error's whole field list. */
export const MAX_METADATA_BYTES = 1024 * 1024;
const DETAILS_KEY = 'grpc-status-details-bin';
const ERROR_INFO_TYPE = 'type.googleapis.com/google.rpc.ErrorInfo';
const BAD_REQUEST_TYPE = 'type.googleapis.com/google.rpc.BadRequest';

export function grpcStatusOf(code: ErrorCode): GrpcStatus {
  return GrpcStatus[ERROR_CODE_TABLE[code].grpc];
}

/** INVALID_INPUT's field list as the standard google.rpc.BadRequest, for any gRPC client. */
function badRequestDetail(error: AppError): Any[] {
  const errors = error.details?.errors as FieldError[] | undefined;
  if (error.code !== 'INVALID_INPUT' || !errors?.length) return [];
  const fieldViolations = errors.map((e) => ({
    field: e.field,
    description: e.message ?? '',
    reason: Object.keys(e.constraint ?? {})[0] ?? '',
  }));
  return [
    Any.fromPartial({ typeUrl: BAD_REQUEST_TYPE, value: Buffer.from(BadRequest.encode({ fieldViolations }).finish()) }),
  ];
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
