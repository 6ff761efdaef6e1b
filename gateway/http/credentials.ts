import type { NextFunction, Request, Response } from 'express';
import type { agentAuth } from './agent-auth';
import type { basicAuth } from './basic-auth';
import { requestOperation } from './request-operation';

/**
 * Each operation's own scheme: the agent routes take only an agent's Bearer token, the redeem
 * route none, every other route only the platform's Basic credentials. So an agent token never
 * reaches a platform route and a platform credential never reaches an agent route.
 */
export function credentials(basic: ReturnType<typeof basicAuth>, agent: ReturnType<typeof agentAuth>) {
  return (req: Request, res: Response, next: NextFunction) => {
    const op = requestOperation(req);
    if (op?.agentAuth) return void agent(req, res, next, op.agentAuth);
    if (op && !op.authenticated) return next();
    return void basic(req, res, next);
  };
}
