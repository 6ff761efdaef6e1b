import type { Response } from 'express';
import type { CallContext } from '../../lib/grpc/call-context';
import { AppError } from '../../lib/errors';
import { deferredShapeErrors } from './shape-errors';

/** Set by the auth middleware for every authenticated request. */
export interface Caller {
  platformId: string;
  tokenId: string;
  /** What the API token may do (contract/operation-permissions.ts). */
  permissions?: readonly string[];
}

export function callerOf(res: Response): Caller | undefined {
  return res.locals.caller as Caller | undefined;
}

export function setCaller(res: Response, caller: Caller): void {
  res.locals.caller = caller;
}

/** The gRPC call context for the platform that authenticated this request. */
export function callContext(res: Response): CallContext {
  const caller = res.locals.caller as Caller | undefined;
  if (!caller) throw new AppError('UNAUTHORIZED', 'Authentication required');
  return {
    platformId: caller.platformId,
    correlationId: res.locals.correlationId as string | undefined,
    fieldErrors: deferredShapeErrors(res),
  };
}
