import type { Request, Response } from 'express';
import type { basicAuth } from '../http/basic-auth';
import { callerOf, type Caller } from '../http/call-context';
import { AppError } from '../../lib/errors';
import { dashboardRoutes, type VerifyCredential } from './dashboard-routes';
import { sessionCredential } from './session-credential';
import { createSessionStore, type SessionStoreOptions } from './session-store';

export interface DashboardSetup {
  /** The API's Basic authentication: sign-in and every session request go through it. */
  basic: ReturnType<typeof basicAuth>;
  sandbox: boolean;
  sessions?: SessionStoreOptions;
  assetsDir?: string;
}

/**
 * The dashboard's server side: its routes (/dashboard: sign-in, session, sign-out, the front end)
 * and the middleware that lets its session cookie stand for the token's credential on the API.
 */
export function dashboard(setup: DashboardSetup) {
  const store = createSessionStore(setup.sessions);
  const verify: VerifyCredential = (req: Request, res: Response, authorization: string) =>
    new Promise<Caller>((done, fail) => {
      const sent = req.headers.authorization;
      req.headers.authorization = authorization;
      void setup.basic(req, res, (err?: unknown) => {
        if (sent === undefined) delete req.headers.authorization;
        else req.headers.authorization = sent;
        const caller = callerOf(res);
        if (err) fail(err);
        else if (!caller) fail(new AppError('UNAUTHORIZED', 'Credentials are required'));
        else done(caller);
      });
    });
  return {
    routes: dashboardRoutes({ store, verify, sandbox: setup.sandbox, assetsDir: setup.assetsDir }),
    sessionCredential: sessionCredential(store),
  };
}
