import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import { AppError } from '../../lib/errors';
import type { Caller } from '../http/call-context';
import { OPERATIONS } from '../contract/operation-registry';
import { permissionRefusal } from '../contract/operation-permissions';
import { API_VERSION } from '../contract/api-version';
import { clearSessionCookie, sessionCookieOf, setSessionCookie } from './session-cookie';
import { checkCsrf, sessionOf } from './session-credential';
import type { DashboardSession, SessionStore } from './session-store';

/** Checks a Basic credential exactly as the API does (cache, throttle), answering its caller. */
export type VerifyCredential = (req: Request, res: Response, authorization: string) => Promise<Caller>;

export interface DashboardOptions {
  store: SessionStore;
  verify: VerifyCredential;
  /** GRID_MODE=sandbox: the session says so and the dashboard shows its sandbox panel. */
  sandbox: boolean;
  /** Where `vite build` wrote the front end (default: dist/dashboard beside the compiled gateway). */
  assetsDir?: string;
}

/** dist/dashboard, from gateway/dashboard (jest, ts) or dist/gateway/dashboard (compiled). */
export function defaultAssetsDir(): string {
  const up = resolve(__dirname, '..', '..');
  return basename(up) === 'dist' ? join(up, 'dashboard') : join(up, 'dist', 'dashboard');
}

/**
 * Every dashboard response: a strict CSP (own scripts and styles only, no framing), no sniffing,
 * no referrer, nothing cached. The browser loads only what this gateway serves.
 */
export const DASHBOARD_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
  + "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

function securityHeaders(_req: Request, res: Response, next: NextFunction) {
  res.locals.dashboardSession = true;
  res.set({
    'Content-Security-Policy': DASHBOARD_CSP,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cache-Control': 'no-store',
  });
  next();
}

/** The sandbox's simulators (money, UMA, cards): refused by the services outside sandbox mode. */
const isSimulator = (path: string) => path.startsWith('/sandbox/') && !path.startsWith('/sandbox/webhooks/');

/** The operations this caller may call: the dashboard shows an action only when its operation is here. */
function allowedOperations(caller: Caller, sandbox: boolean): string[] {
  return OPERATIONS.filter((op) =>
    !op.agentAuth && op.authenticated !== false && !permissionRefusal(op, caller.permissions ?? [])
    && (sandbox || !isSimulator(op.path))
  ).map((op) => op.operationId);
}

function sessionJson(caller: Caller, session: DashboardSession, sandbox: boolean) {
  return {
    tokenId: caller.tokenId,
    permissions: caller.permissions ?? [],
    operations: allowedOperations(caller, sandbox),
    csrfToken: session.csrfToken,
    expiresAt: new Date(session.expiresAt).toISOString(),
    sandbox,
    apiBase: `/${API_VERSION}`,
  };
}

/** Sign-in answers only JSON from this origin: a cross-site form cannot send it without a preflight we never grant. */
function requireJsonFromHere(req: Request) {
  if (!req.is('application/json')) {
    throw AppError.invalidInput('Sign-in takes application/json', [{
      field: 'content-type',
      message: 'application/json',
    }]);
  }
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `${req.protocol}://${req.get('host')}`) {
    throw new AppError('FORBIDDEN', 'Sign-in from another origin is refused');
  }
}

function credentialsOf(body: unknown): { tokenId: string; clientSecret: string } {
  const { tokenId, clientSecret } = (body ?? {}) as Record<string, unknown>;
  const errors = [
    ...(typeof tokenId === 'string' && tokenId.length > 0 && tokenId.length <= 200 && !tokenId.includes(':')
      ? []
      : [{ field: 'tokenId', message: 'a non-empty API token id without ":"' }]),
    ...(typeof clientSecret === 'string' && clientSecret.length > 0 && clientSecret.length <= 500
      ? []
      : [{ field: 'clientSecret', message: "the token's client secret" }]),
  ];
  if (errors.length) throw AppError.invalidInput('Sign-in needs tokenId and clientSecret', errors);
  return { tokenId: tokenId as string, clientSecret: clientSecret as string };
}

function sessionRoutes(options: DashboardOptions): express.Router {
  const { store, verify, sandbox } = options;
  const router = express.Router();
  router.post('/session', express.json({ limit: '4kb' }), async (req, res) => {
    requireJsonFromHere(req);
    const { tokenId, clientSecret } = credentialsOf(req.body);
    const authorization = `Basic ${Buffer.from(`${tokenId}:${clientSecret}`).toString('base64')}`;
    const caller = await verify(req, res, authorization);
    // A new sign-in ends the session this browser had: one cookie, one live session.
    const previous = sessionCookieOf(req);
    if (previous !== undefined) store.end(previous);
    const { sessionId, session } = store.open(caller, authorization);
    setSessionCookie(req, res, sessionId, store.ttlMs);
    res.status(201).json(sessionJson(caller, session, sandbox));
  });
  router.get('/session', async (req, res) => {
    const session = sessionOf(req, store);
    res.json(sessionJson(await verify(req, res, session.authorization), session, sandbox));
  });
  router.delete('/session', (req, res) => {
    const sessionId = sessionCookieOf(req);
    checkCsrf(req, sessionOf(req, store));
    store.end(sessionId!);
    clearSessionCookie(req, res);
    res.status(204).end();
  });
  router.all('/session', (req, res) => {
    res.set('Allow', 'GET, POST, DELETE');
    throw new AppError('METHOD_NOT_ALLOWED', `${req.method} is not served at /dashboard/session`);
  });
  return router;
}

function frontEnd(assetsDir: string): express.Router {
  const router = express.Router();
  const index = join(assetsDir, 'index.html');
  router.use(
    '/assets',
    express.static(join(assetsDir, 'assets'), {
      index: false,
      redirect: false,
      dotfiles: 'deny',
      setHeaders: (res) => res.set('Cache-Control', 'public, max-age=31536000, immutable'),
    }),
    (req: Request) => {
      throw new AppError('NOT_FOUND', `No dashboard asset ${req.path}`);
    },
  );
  // Every other GET is a page of the single-page application: its index.
  router.get('/{*page}', (_req, res) => {
    if (!existsSync(index)) throw new AppError('UNAVAILABLE', 'The dashboard is not built: run `npm run build`');
    res.type('html').sendFile(index);
  });
  return router;
}

/** /dashboard: the session endpoints and the front end, under the dashboard's security headers. */
export function dashboardRoutes(options: DashboardOptions): express.Router {
  const router = express.Router();
  router.use(securityHeaders);
  router.use(sessionRoutes(options));
  router.use(frontEnd(options.assetsDir ?? defaultAssetsDir()));
  router.use((req: Request) => {
    throw new AppError('METHOD_NOT_ALLOWED', `${req.method} is not served at ${req.baseUrl}${req.path}`);
  });
  return router;
}
