import { ErrorCode, UmaError } from '@uma-sdk/core';
import express, { type NextFunction, type Request, type Response } from 'express';
import { AnswerRequest_Endpoint } from '../../gen/quotes_transactions/v1/uma';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { OperationHandlers, type OperationHandler } from './operation-routes';

/** The most a pay request or post-transaction callback may carry (a pay request is a few KB). */
export const UMA_BODY_LIMIT_BYTES = 16 * 1024;

/** A body too large or unreadable is refused in the protocol's own error form. */
function refuseBody(err: unknown, res: Response, next: NextFunction): void {
  const type = (err as { type?: string } | undefined)?.type;
  if (
    !type?.startsWith('entity.') && !type?.startsWith('request.') && !type?.startsWith('charset.')
    && !type?.startsWith('encoding.')
  ) return next(err);
  const tooLarge = type === 'entity.too.large';
  const refusal = new UmaError(
    tooLarge ? `the body exceeds ${UMA_BODY_LIMIT_BYTES} bytes` : 'the body could not be read',
    ErrorCode.INVALID_REQUEST_FORMAT,
  );
  res.status(tooLarge ? 413 : 400).type('application/json').send(refusal.toJSON());
}

/**
 * The UMA protocol's endpoints, at the root without credentials (another VASP calls them; the
 * service checks its signature): the request goes to the service as it came, its answer comes
 * back as the protocol's JSON with its status.
 */
export function umaRoutes(peers: PeerClients): OperationHandlers {
  const routes = new OperationHandlers();
  const text = express.text({ type: () => true, limit: UMA_BODY_LIMIT_BYTES });
  const body: OperationHandler = (req, res, next) =>
    text(req, res, (err?: unknown) => (err ? refuseBody(err, res, next) : next()));

  const answer = (endpoint: AnswerRequest_Endpoint) => async (req: Request, res: Response) => {
    const { httpStatus, jsonBody } = await peers.umaProtocol.answer(
      { endpoint, pathAndQuery: req.originalUrl, body: typeof req.body === 'string' ? req.body : '' },
      { correlationId: res.locals.correlationId as string | undefined },
    );
    res.status(httpStatus).set('Cache-Control', 'no-store').type('application/json').send(jsonBody);
  };

  routes.on('getUmaPublicKeys', answer(AnswerRequest_Endpoint.LNURLPUBKEY));
  routes.on('answerUmaLnurlp', answer(AnswerRequest_Endpoint.LNURLP));
  routes.on('answerUmaPayRequest', body, answer(AnswerRequest_Endpoint.PAY_REQUEST));
  routes.on('answerUmaPostTransaction', body, answer(AnswerRequest_Endpoint.POST_TRANSACTION));
  return routes;
}
