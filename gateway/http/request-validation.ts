import type { NextFunction, Request, Response } from 'express';
import type { ErrorObject } from 'ajv';
import { MAX_AMOUNT } from '../../lib/contract/amount-bounds';
import { createOperationValidator } from '../contract/compiled-validators';
import { fieldErrors, inMemberOrder } from '../../lib/contract/contract-errors';
import type { Operation } from '../contract/operation';
import { AppError, type FieldError } from '../../lib/errors';
import { INVALID_IDEMPOTENCY_KEY, readIdempotencyKey } from '../../lib/idempotency-key';
import { deferShapeErrors } from './shape-errors';
import { requestOperation } from './request-operation';

/** Kept here too for callers that read it from the gateway. */
export { fieldErrors };

type Schema = Record<string, unknown>;

const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The Idempotency-Key, where the operation takes one (docs/idempotency.md). */
function headerErrors(req: Request, op: Operation): FieldError[] {
  const key = req.get('Idempotency-Key');
  if (!op.headers?.includes('idempotencyKey') || key === undefined || readIdempotencyKey(key) !== undefined) return [];
  return [{ ...INVALID_IDEMPOTENCY_KEY, constraint: { ...INVALID_IDEMPOTENCY_KEY.constraint } }];
}

/**
 * An amount beyond MAX_AMOUNT is INVALID_AMOUNT, as the services answer an amount they refuse: when
 * every invalid member of the body is such an amount, the 400 carries that code and lists them.
 */
function amountOutOfRange(raw: ErrorObject[], bodyErrors: FieldError[]): AppError | undefined {
  const tooLarge = new Set(
    fieldErrors(raw.filter((e) => e.keyword === 'maximum' && e.params.limit === MAX_AMOUNT)).map((e) => e.field),
  );
  if (!bodyErrors.length || !bodyErrors.every((e) => tooLarge.has(e.field))) return undefined;
  return new AppError('INVALID_AMOUNT', `Amounts are at most ${MAX_AMOUNT} (minor units)`, { errors: bodyErrors });
}

/**
 * Checks each request against its operation in our OpenAPI document before any route sees it:
 * the query, and the JSON body when there is one. Every invalid member is listed at once in a
 * 400 INVALID_INPUT. What the schemas leave open (cross-field and catalogue rules) the services
 * still check; on operations marked `validatedWithUseCase` the body's errors go along to the use
 * case, which answers both lists as one. Requests no operation serves pass through to the 404.
 */
export function requestValidation() {
  const validate = createOperationValidator();
  return (req: Request, res: Response, next: NextFunction) => {
    const op = requestOperation(req);
    if (!op) return next();
    res.locals.operationId = op.operationId; // the request's metrics label (request-tracing.ts)
    if (op.validatedWithUseCase && headerErrors(req, op).length) {
      return next(AppError.invalidInput('Invalid request', headerErrors(req, op)));
    }
    const queryErrors = op.query ? fieldErrors(validate(op, 'query', { ...req.query })) : [];
    let bodyErrors: FieldError[] = [];
    if (op.body && req.body !== undefined) {
      if (!isObject(req.body)) return next(AppError.invalidInput('Request body must be a JSON object'));
      const raw = validate(op, 'body', req.body);
      bodyErrors = inMemberOrder(fieldErrors(raw), op.body.schema as Schema);
      const outOfRange = queryErrors.length || headerErrors(req, op).length
        ? undefined
        : amountOutOfRange(raw, bodyErrors);
      if (outOfRange) return next(outOfRange);
    }
    if (op.validatedWithUseCase && !queryErrors.length && bodyErrors.length) {
      deferShapeErrors(res, req.body, bodyErrors);
      return next();
    }
    const errors = [...headerErrors(req, op), ...queryErrors, ...bodyErrors];
    next(errors.length ? AppError.invalidInput('Invalid request', errors) : undefined);
  };
}
