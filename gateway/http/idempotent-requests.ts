import type { NextFunction, Request, Response } from 'express';
import { BeginKeyedRequestResponse_Outcome } from '../../gen/quotes_transactions/v1/idempotency';
import { AppError } from '../../lib/errors';
import { INVALID_IDEMPOTENCY_KEY, readIdempotencyKey, requestFingerprint } from '../../lib/idempotency-key';
import type { Logger } from '../../lib/log';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { callContext } from './call-context';
import { requestOperation } from './request-operation';

type Records = PeerClients['idempotency'];

/** The header every keyed operation reads (contract/operation.ts HEADERS.idempotencyKey). */
const HEADER = 'Idempotency-Key';

function sendJsonText(res: Response, status: number, text: string): void {
  res.status(status).set('Content-Type', 'application/json; charset=utf-8').send(text);
}

/**
 * The one Idempotency-Key rule (docs/idempotency.md), for every operation whose contract takes the
 * header: the key is claimed in quotes-transactions' IdempotencyService before the route runs, and
 * the answer the route sends is stored there before it leaves, so a repeat gets the same status and
 * body. A repeat with another body or operation answers 422, one while the first runs 409. Runs
 * after request validation, so a request refused for its shape claims nothing.
 */
export function idempotentRequests(records: () => Records, logger: Logger) {
  const keyed = async (req: Request, res: Response, next: NextFunction, raw: string) => {
    const key = readIdempotencyKey(raw);
    // Request validation, which runs first, refuses a malformed key; should it not have, this fails closed the same
    // way.
    if (key === undefined) {
      return next(
        AppError.invalidInput('Invalid request', [{
          ...INVALID_IDEMPOTENCY_KEY,
          constraint: { ...INVALID_IDEMPOTENCY_KEY.constraint },
        }]),
      );
    }
    const agentId = (res.locals.agent as { id?: string } | undefined)?.id;
    const scope = { key, ...(agentId ? { agentId } : {}) };
    try {
      const ctx = callContext(res);
      const begun = await records().beginKeyedRequest(
        { ...scope, operation: `${req.method} ${req.path}`, fingerprint: requestFingerprint(req.body ?? {}) },
        ctx,
      );
      if (begun.outcome === BeginKeyedRequestResponse_Outcome.REPLAY && begun.response) {
        res.set('Idempotent-Replayed', 'true');
        return sendJsonText(res, begun.response.status, begun.response.body);
      }
      let answered = false;
      // Every keyed route answers JSON (its result, or the error envelope): store it, then send it.
      res.json = (body: unknown) => {
        answered = true;
        const text = JSON.stringify(body);
        const status = res.statusCode;
        records().completeKeyedRequest({ ...scope, claim: begun.claim, response: { status, body: text } }, ctx)
          .catch((err: unknown) =>
            logger.warn('idempotency key not stored; it frees itself when its lease ends', {
              err,
              correlationId: res.locals.correlationId,
            })
          )
          .finally(() => sendJsonText(res, status, text));
        return res;
      };
      res.on('finish', () => {
        if (!answered) void records().releaseKeyedRequest({ ...scope, claim: begun.claim }, ctx).catch(() => undefined);
      });
      next();
    } catch (err) {
      next(err);
    }
  };
  return (req: Request, res: Response, next: NextFunction) => {
    const raw = req.get(HEADER);
    if (raw === undefined || !requestOperation(req)?.headers?.includes('idempotencyKey')) return next();
    return keyed(req, res, next, raw);
  };
}
