import type { Response } from 'express';
import { AppError, type FieldError } from '../../lib/errors';
import { mergeFieldErrors } from '../../lib/field-error-list';

type Json = Record<string, unknown>;

/** Leaves the refused member out of the body: the service then sees it as absent. */
function leaveOut(body: Json, field: string): void {
  const path = field.split('.');
  let holder: unknown = body;
  for (let i = 0; i < path.length; i++) {
    if (typeof holder !== 'object' || holder === null || Array.isArray(holder)) return;
    const bracket = path[i].indexOf('[');
    const key = bracket < 0 ? path[i] : path[i].slice(0, bracket);
    if (bracket >= 0 || i === path.length - 1) {
      delete (holder as Json)[key];
      return;
    }
    holder = (holder as Json)[key];
  }
}

/**
 * For operations whose use case reports its errors together with the gateway's: the refused
 * members are left out of the body and the errors ride on the call (CallContext.fieldErrors).
 */
export function deferShapeErrors(res: Response, body: Json, errors: FieldError[]): void {
  for (const e of errors) leaveOut(body, e.field);
  res.locals.fieldErrors = errors;
}

export function deferredShapeErrors(res: Response): FieldError[] | undefined {
  return res.locals.fieldErrors as FieldError[] | undefined;
}

/**
 * However the request ended, deferred shape errors are answered: merged with the use case's own
 * field errors, or alone when it failed in another way first (the body was never valid).
 */
export function withDeferredShapeErrors(res: Response, error: AppError): AppError {
  const deferred = deferredShapeErrors(res);
  if (!deferred?.length) return error;
  const found = error.code === 'INVALID_INPUT' ? ((error.details?.errors as FieldError[] | undefined) ?? []) : [];
  return AppError.invalidInput('Invalid request', mergeFieldErrors(deferred, found));
}
