import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

/** `Request-Id` belongs to the signed-retry protocol, so requests are correlated under this name. */
export const CORRELATION_HEADER = 'X-Correlation-Id';
/**
 * The same id under the response header Stainless-generated SDKs (Grid's included) surface on
 * errors as `err.requestID`, for support tickets. Response only: as a request header `Request-Id`
 * stays the signed retry's.
 */
export const SDK_REQUEST_ID_HEADER = 'request-id';
const SAFE = /^[A-Za-z0-9._:-]{1,128}$/;

export function correlationId() {
  return (req: Request, res: Response, next: NextFunction) => {
    const incoming = req.get(CORRELATION_HEADER);
    const id = incoming && SAFE.test(incoming) ? incoming : randomUUID();
    res.locals.correlationId = id;
    res.set(CORRELATION_HEADER, id);
    res.set(SDK_REQUEST_ID_HEADER, id);
    next();
  };
}
