import type { NextFunction, Request, Response } from 'express';
import { AgentPolicy_Permission, type Agent } from '../../gen/auth/v1/agents';
import type { AgentContext } from '../../gen/quotes_transactions/v1/agent_actions';
import { AppError } from '../../lib/errors';
import type { AgentAuth } from '../contract/operation';
import { OPAQUE, type AuthThrottle } from './auth-throttle';
import { setCaller } from './call-context';
import { clientAddress } from './client-address';
import { credentialVerifier } from './verify-credential';

export type AuthenticateAgent = (accessToken: string, requirement: AgentAuth) => Promise<Agent>;

/** Only an unknown token is a guess: a paused agent's is a known one. */
const isUnknownToken = (err: unknown) =>
  err instanceof AppError && err.code === 'UNAUTHORIZED' && !err.details?.agentPaused;

function bearerToken(header: string | undefined): string | undefined {
  return /^Bearer\s+([A-Za-z0-9._~+/=-]+)\s*$/i.exec(header ?? '')?.[1];
}

/**
 * HTTP Bearer with an agent's access token, for the agent routes only. Every request asks the auth
 * service (no cache): a paused or deleted agent, or a policy change, counts on the very next
 * request on every replica. The service compares digests, never the token itself.
 */
export function agentAuth(authenticate: AuthenticateAgent, throttle: AuthThrottle) {
  const verify = credentialVerifier<Agent>(throttle, isUnknownToken);
  return async (req: Request, res: Response, next: NextFunction, requirement: AgentAuth) => {
    const token = bearerToken(req.headers.authorization);
    if (!token) {
      return next(
        new AppError('UNAUTHORIZED', 'An agent access token is required: Authorization: Bearer <accessToken>'),
      );
    }
    try {
      const variant = `${requirement.permission ?? ''}/${requirement.allowPaused ? 'paused-ok' : ''}`;
      const agent = await verify({
        credential: token,
        subject: OPAQUE,
        address: clientAddress(req),
        verify: () => authenticate(token, requirement),
        variant,
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

export const permissionOf = (
  requirement: AgentAuth,
) => (requirement.permission ? AgentPolicy_Permission[requirement.permission] : undefined);
