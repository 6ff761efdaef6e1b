import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

/** `Request-Id` belongs to the signed-retry protocol, so requests are correlated under this name. */
export const CORRELATION_HEADER = 'X-Correlation-Id';
const SAFE = /^[A-Za-z0-9._:-]{1,128}$/;

export function correlationId() {
  return (req: Request, res: Response, next: NextFunction) => {
    const incoming = req.get(CORRELATION_HEADER);
    const id = incoming && SAFE.test(incoming) ? incoming : randomUUID();
    res.locals.correlationId = id;
    res.set(CORRELATION_HEADER, id);
    next();
  };
}
