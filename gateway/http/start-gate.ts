import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../../lib/errors';
import { sendError } from './error-envelope';

/** Seconds a client is asked to wait while the gateway is starting. */
export const STARTING_RETRY_AFTER_SECONDS = 1;

/**
 * Until the gateway can authenticate a request (its services answer and the sandbox credentials
 * exist), an API request is answered 503 UNAVAILABLE with Retry-After: a client with valid
 * credentials is told to come back, never refused with a 401 it would believe.
 */
export function startGate(isOpen: () => boolean) {
  return (_req: Request, res: Response, next: NextFunction) => {
    if (isOpen()) return next();
    // Answered here rather than passed on: the error handler logs UNAVAILABLE as a failure.
    sendError(
      res,
      new AppError('UNAVAILABLE', 'The gateway is starting; retry shortly', {
        retryAfterSeconds: STARTING_RETRY_AFTER_SECONDS,
      }),
    );
  };
}
