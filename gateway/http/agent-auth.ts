import type { NextFunction, Request, Response } from 'express';
import { AgentPolicy_Permission, type Agent } from '../../gen/auth/v1/agents';
import type { AgentContext } from '../../gen/quotes_transactions/v1/agent_actions';
import { AppError } from '../../lib/errors';
import type { AgentAuth } from '../contract/operation';
import type { AuthThrottle } from './auth-throttle';
import { setCaller } from './call-context';

export type AuthenticateAgent = (accessToken: string, requirement: AgentAuth) => Promise<Agent>;

/** Failed agent credentials (tokens and device codes) are throttled per client address. */
export const agentThrottleKey = (address: string) => `agent-credentials@${address}`;

function bearerToken(header: string | undefined): string | undefined {
  return /^Bearer\s+([A-Za-z0-9._~+/=-]+)\s*$/i.exec(header ?? '')?.[1];
}

/**
 * HTTP Bearer with an agent's access token, for the agent routes only. Every request asks the auth
 * service (no cache): a paused or deleted agent, or a policy change, counts on the very next
 * request on every replica. The service compares digests, never the token itself.
 */
export function agentAuth(authenticate: AuthenticateAgent, throttle: AuthThrottle) {
  return async (req: Request, res: Response, next: NextFunction, requirement: AgentAuth) => {
    const token = bearerToken(req.headers.authorization);
    if (!token) return next(new AppError('UNAUTHORIZED', 'An agent access token is required: Authorization: Bearer <accessToken>'));
    const address = req.socket.remoteAddress ?? 'unknown';
    const key = agentThrottleKey(address);
    try {
      const throttled = await throttle.check(key, address);
      if (throttled) return next(new AppError('RATE_LIMITED', 'Too many failed authentication attempts; try again later', { ...throttled }));
      const agent = await authenticate(token, requirement).catch(async (err: unknown) => {
        // A paused agent is a known token: only unknown tokens count as guesses.
        if (err instanceof AppError && err.code === 'UNAUTHORIZED' && !err.details?.agentPaused) await throttle.failed(key, address);
        throw err;
      });
      setCaller(res, { platformId: agent.platformId, tokenId: agent.id });
      res.locals.agent = agent;
      next();
    } catch (err) {
      next(err);
    }
  };
}

/** The authenticated agent of this request, as the quotes-transactions service is told it. */
export function agentOf(res: Response): Agent {
  const agent = res.locals.agent as Agent | undefined;
  if (!agent) throw new AppError('UNAUTHORIZED', 'Agent authentication required');
  return agent;
}

export function agentContext(res: Response): AgentContext {
  const agent = agentOf(res);
  return { agentId: agent.id, customerId: agent.customerId, policy: agent.policy };
}

export const permissionOf = (requirement: AgentAuth) => (requirement.permission ? AgentPolicy_Permission[requirement.permission] : undefined);
