import type { Response } from 'express';
import { AppError } from '../../lib/errors';
import { httpStatusOf } from './http-status';

export interface ErrorEnvelope {
  status: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export function toEnvelope(error: AppError): ErrorEnvelope {
  const status = httpStatusOf(error.code);
  return { status, code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) };
}

export function sendError(res: Response, error: AppError): void {
  const envelope = toEnvelope(error);
  // The dashboard (its pages, or the API with its cookie) gets no Basic challenge: the browser's prompt would replace
  // its sign-in page.
  if (envelope.status === 401 && error.code === 'UNAUTHORIZED' && !res.locals.dashboardSession) {
    res.set('WWW-Authenticate', 'Basic realm="grid", charset="UTF-8"');
  }
  const retryAfter = error.details?.retryAfterSeconds;
  if ((envelope.status === 429 || envelope.status === 503) && typeof retryAfter === 'number') {
    res.set('Retry-After', String(retryAfter));
  }
  res.status(envelope.status).json(envelope);
}
