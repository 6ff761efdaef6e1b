import express, { type NextFunction, type Request, type Response } from 'express';
import type { Readiness } from './http/readiness';
import { AppError, toAppError } from '../lib/errors';
import type { Logger } from '../lib/log';
import type { PeerClients } from '../lib/runtime/peer-clients';
import { createAuthThrottle, type AuthThrottle, type AuthThrottleLimits } from './http/auth-throttle';
import { agentAuth, permissionOf } from './http/agent-auth';
import { basicAuth } from './http/basic-auth';
import { createCredentialCache, type CredentialCache } from './http/credential-cache';
import { credentials } from './http/credentials';
import { correlationId } from './http/correlation-id';
import { withDeferredShapeErrors } from './http/shape-errors';
import { sendError } from './http/error-envelope';
import { bodyParserError, jsonBody } from './http/request-body';
import { requestTracing } from './http/request-tracing';
import { responseCompression } from './http/response-compression';
import { requestValidation } from './http/request-validation';
import { idempotentRequests } from './http/idempotent-requests';
import { refuseUnservedMethods, requirePermission } from './http/require-permission';
import { DEFAULT_EDGE_SETTINGS, type EdgeSettings } from './http/edge-settings';
import { requestRateLimit } from './http/request-rate-limit';
import { startGate } from './http/start-gate';
import { apiHandlers } from './routes/api-routes';
import { operationRoutes, requireEveryOperationServed } from './routes/operation-routes';
import { systemRoutes } from './routes/system-routes';
import { hostedKycRoutes } from './routes/hosted-kyc-routes';
import { cardRevealRoutes } from './routes/card-reveal-routes';
import { umaRoutes } from './routes/uma-routes';
import { API_VERSION } from './contract/api-version';
import { dashboard } from './dashboard/dashboard';

export { API_VERSION };

export interface GatewayOptions {
  peers: PeerClients;
  logger: Logger;
  /** Readiness: every service answers its health check. */
  servicesReady: () => Promise<boolean>;
  /** Readiness with each dependency's state (http/readiness.ts); when given, /readyz answers it. */
  readiness?: () => Promise<Readiness>;
  authCacheMs?: number;
  authThrottle?: AuthThrottleLimits;
  /** Accepted credentials; the gateway server also empties it of tokens deleted through other replicas. */
  credentialCache?: CredentialCache;
  /** Trusted proxies and the per-credential request rate (http/edge-settings.ts). */
  edge?: EdgeSettings;
  /** False while the gateway cannot authenticate yet (starting): API requests get 503 with Retry-After. */
  acceptsRequests?: () => boolean;
  /** GRID_MODE=sandbox: the hosted KYC page offers the simulated outcomes (default true). */
  sandbox?: boolean;
}

/**
 * The handlers of every operation, by where the gateway mounts them. Each operation has exactly one,
 * served at the path and method the contract gives it; the gateway does not start otherwise.
 */
export function operationHandlerSets(
  options: GatewayOptions,
  api: { forgetToken: (clientId: string) => void; throttle: AuthThrottle },
) {
  const sets = {
    system: systemRoutes(options),
    api: apiHandlers(options.peers, api),
    uma: umaRoutes(options.peers),
    hostedKyc: hostedKycRoutes(options.peers, { sandbox: options.sandbox ?? true }),
    cardReveal: cardRevealRoutes(options.peers),
  };
  requireEveryOperationServed(Object.values(sets));
  return sets;
}

export function createGatewayApp(options: GatewayOptions): express.Express {
  const { peers, logger } = options;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  const edge = options.edge ?? DEFAULT_EDGE_SETTINGS;
  app.set('trust proxy', edge.GATEWAY_TRUST_PROXY);

  app.use(correlationId());
  app.use(requestTracing(logger));
  app.use(responseCompression());
  const credentialCache = options.credentialCache ?? createCredentialCache({ cacheMs: options.authCacheMs });
  const throttle = createAuthThrottle(options.authThrottle);
  const handlerSets = operationHandlerSets(options, { forgetToken: credentialCache.forget, throttle });
  const { system, api, uma, hostedKyc, cardReveal } = handlerSets;

  // Health, readiness and our OpenAPI document: without credentials, served while starting too.
  app.use(operationRoutes(system));

  // Everything below needs the services (credentials first): nothing is answered before the start is over.
  if (options.acceptsRequests) app.use(startGate(options.acceptsRequests));

  const authenticate = async (tokenId: string, clientSecret: string) =>
    peers.apiTokens.authenticateApiToken({ tokenId, clientSecret });
  const authenticateAgent = async (
    accessToken: string,
    requirement: { permission?: Parameters<typeof permissionOf>[0]['permission']; allowPaused?: boolean },
  ) =>
    (await peers.agents.authenticateAgent({
      accessToken,
      permission: permissionOf(requirement),
      allowPaused: !!requirement.allowPaused,
    })).agent!;
  const basic = basicAuth(authenticate, { cache: credentialCache, throttle });
  const platformOrAgent = credentials(basic, agentAuth(authenticateAgent, throttle));
  // The dashboard (/dashboard): its session cookie stands for an API token's Basic credential (dashboard/).
  const board = dashboard({ basic, sandbox: options.sandbox ?? true });
  app.use('/dashboard', board.routes);
  app.use(
    `/${API_VERSION}`,
    board.sessionCredential,
    platformOrAgent,
    requestRateLimit({
      requests: edge.GATEWAY_RATE_LIMIT_REQUESTS,
      windowSeconds: edge.GATEWAY_RATE_LIMIT_WINDOW_SECONDS,
      platformRequests: edge.GATEWAY_PLATFORM_RATE_LIMIT_REQUESTS || 4 * edge.GATEWAY_RATE_LIMIT_REQUESTS,
    }),
    requirePermission(),
    jsonBody(),
    requestValidation(),
    idempotentRequests(() => peers.idempotency, logger),
    operationRoutes(api, `/${API_VERSION}`),
  );

  // The UMA protocol's endpoints: no credentials, the sending VASP's signature is checked by the service.
  app.use(refuseUnservedMethods(), operationRoutes(uma));
  // The hosted KYC page: no credentials, its single-use link token is the credential.
  app.use(refuseUnservedMethods(), operationRoutes(hostedKyc));
  // The card reveal page: no credentials, its signed single-use token is the credential.
  app.use(refuseUnservedMethods(), operationRoutes(cardReveal));

  app.use((req: Request, _res: Response, next: NextFunction) => {
    next(new AppError('NOT_FOUND', `No route for ${req.method} ${req.path}`));
  });
  // Express recognises error middleware by its four parameters.
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const raised = bodyParserError(err)
      ?? (err instanceof URIError ? AppError.invalidInput('Malformed URL encoding') : toAppError(err));
    const error = withDeferredShapeErrors(res, raised);
    if (raised.code === 'INTERNAL_ERROR' || raised.code === 'UNAVAILABLE') {
      logger.error('request failed', {
        code: raised.code,
        correlationId: res.locals.correlationId,
        cause: raised.cause ?? err,
      });
    }
    if (res.headersSent) return;
    sendError(res, error);
  });
  return app;
}
