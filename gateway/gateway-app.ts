import express, { type NextFunction, type Request, type Response } from 'express';
import { AppError, toAppError } from '../lib/errors';
import type { Logger } from '../lib/log';
import type { PeerClients } from '../lib/runtime/peer-clients';
import { createAuthThrottle, type AuthThrottleLimits } from './http/auth-throttle';
import { basicAuth } from './http/basic-auth';
import { correlationId } from './http/correlation-id';
import { sendError } from './http/error-envelope';
import { bodyParserError, jsonBody } from './http/request-body';
import { requestTracing } from './http/request-tracing';
import { requestValidation } from './http/request-validation';
import { apiRoutes } from './routes/api-routes';
import { hostedKycRoutes } from './routes/hosted-kyc-routes';
import { API_VERSION } from './contract/api-version';
import { openApiDocumentJson } from './contract/openapi-document';

export { API_VERSION };

export interface GatewayOptions {
  peers: PeerClients;
  logger: Logger;
  /** Readiness: every service answers its health check. */
  servicesReady: () => Promise<boolean>;
  authCacheMs?: number;
  authThrottle?: AuthThrottleLimits;
}

export function createGatewayApp(options: GatewayOptions): express.Express {
  const { peers, logger } = options;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');

  app.use(correlationId());
  app.use(requestTracing(logger));
  app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  app.get('/readyz', async (_req, res) => {
    const ready = await options.servicesReady().catch(() => false);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready' });
  });

  // Our OpenAPI document, readable without credentials at the root and under the version prefix.
  const sendDocument = (_req: Request, res: Response) => void res.type('application/json').send(openApiDocumentJson());
  app.get('/openapi.json', sendDocument);
  app.get(`/${API_VERSION}/openapi.json`, sendDocument);

  const authenticate = async (tokenId: string, clientSecret: string) =>
    peers.apiTokens.authenticateApiToken({ tokenId, clientSecret });
  app.use(`/${API_VERSION}`, basicAuth(authenticate, { cacheMs: options.authCacheMs, throttle: createAuthThrottle(options.authThrottle) }), jsonBody(), requestValidation(), apiRoutes(peers));

  // The hosted KYC page: no credentials, its single-use link token is the credential.
  app.use(hostedKycRoutes(peers));

  app.use((req: Request, _res: Response, next: NextFunction) => {
    next(new AppError('NOT_FOUND', `No route for ${req.method} ${req.path}`));
  });
  // Express recognises error middleware by its four parameters.
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const error = bodyParserError(err) ?? (err instanceof URIError ? AppError.invalidInput('Malformed URL encoding') : toAppError(err));
    if (error.code === 'INTERNAL_ERROR' || error.code === 'UNAVAILABLE') {
      logger.error('request failed', { code: error.code, correlationId: res.locals.correlationId, cause: error.cause ?? err });
    }
    if (res.headersSent) return;
    sendError(res, error);
  });
  return app;
}
