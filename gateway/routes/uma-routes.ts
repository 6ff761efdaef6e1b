import { ErrorCode, UmaError } from '@uma-sdk/core';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { AnswerRequest_Endpoint } from '../../gen/quotes_transactions/v1/uma';
import type { PeerClients } from '../../lib/runtime/peer-clients';

/** The most a pay request or post-transaction callback may carry (a pay request is a few KB). */
export const UMA_BODY_LIMIT_BYTES = 16 * 1024;

/**
 * The UMA protocol's endpoints, at the root without credentials (another VASP calls them; the
 * service checks its signature): the request goes to the service as it came, its answer comes
 * back as the protocol's JSON with its status.
 */
export function umaRoutes(peers: PeerClients): Router {
  const router = Router();
  const body = express.text({ type: () => true, limit: UMA_BODY_LIMIT_BYTES });

  const answer = (endpoint: AnswerRequest_Endpoint) => async (req: Request, res: Response) => {
    const { httpStatus, jsonBody } = await peers.umaProtocol.answer(
      { endpoint, pathAndQuery: req.originalUrl, body: typeof req.body === 'string' ? req.body : '' },
      { correlationId: res.locals.correlationId as string | undefined },
    );
    res.status(httpStatus).set('Cache-Control', 'no-store').type('application/json').send(jsonBody);
  };

  router.get('/.well-known/lnurlpubkey', answer(AnswerRequest_Endpoint.LNURLPUBKEY));
  router.get('/.well-known/lnurlp/:username', answer(AnswerRequest_Endpoint.LNURLP));
  router.post('/uma/payreq/:username', body, answer(AnswerRequest_Endpoint.PAY_REQUEST));
  router.post('/uma/post-transaction/:transactionId', body, answer(AnswerRequest_Endpoint.POST_TRANSACTION));
  // A body too large or unreadable is refused in the protocol's own error form.
  router.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    const type = (err as { type?: string } | undefined)?.type;
    if (!type?.startsWith('entity.') && !type?.startsWith('request.') && !type?.startsWith('charset.') && !type?.startsWith('encoding.')) return next(err);
    const tooLarge = type === 'entity.too.large';
    const refusal = new UmaError(tooLarge ? `the body exceeds ${UMA_BODY_LIMIT_BYTES} bytes` : 'the body could not be read', ErrorCode.INVALID_REQUEST_FORMAT);
    res.status(tooLarge ? 413 : 400).type('application/json').send(refusal.toJSON());
  });
  return router;
}
