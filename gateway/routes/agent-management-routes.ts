import { type Request, type Response } from 'express';
import type { Agent, AgentPolicyInput, CreateAgentRequest, UpdateAgentRequest } from '../../gen/auth/v1/agents';
import { agentActionJson } from '../../lib/contract/agent-action-json';
import { AppError, isAbsent } from '../../lib/errors';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { isThrottled, OPAQUE, type AuthThrottle } from '../http/auth-throttle';
import { credentialDigest } from '../http/verify-credential';
import { clientAddress } from '../http/client-address';
import { callContext } from '../http/call-context';
import { bodyMessage, jsonBodyOf } from '../http/request-body';
import { agentJson, policyJson } from './agent-json';
import { listJson, RestRequestReader } from './rest-request';
import { OperationHandlers } from './operation-routes';

/** An optional JSON body: absent is {}. */
const optionalBody = (req: Request) => {
  const body = jsonBodyOf(req);
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
};

/**
 * `permissionsGiven` is no REST member: whether the policy body names `permissions` at all (an
 * empty list clears them, a policy without the member keeps them).
 */
function withPermissionsGiven(policy: AgentPolicyInput, body: unknown): AgentPolicyInput {
  return { ...policy, permissionsGiven: (body as Record<string, unknown> | undefined)?.permissions !== undefined };
}

/** The platform's management of its agents (Basic auth), and the redemption of device codes (no credentials). */
export function agentManagementRoutes(peers: PeerClients, throttle?: AuthThrottle): OperationHandlers {
  const routes = new OperationHandlers();

  const withUsage = async (agent: Agent, res: Response) => {
    const { usage } = await peers.agentActions.getAgentUsage({
      agent: { agentId: agent.id, customerId: agent.customerId, policy: agent.policy },
    }, callContext(res));
    return agentJson(agent, usage!);
  };

  routes.on('createAgent', async (req, res) => {
    const request = bodyMessage<CreateAgentRequest>(req, 'auth.v1.CreateAgentRequest');
    const policyBody = (jsonBodyOf(req) as Record<string, unknown>).policy;
    if (request.policy) request.policy = withPermissionsGiven(request.policy, policyBody);
    const { agent, deviceCode } = await peers.agents.createAgent(request, callContext(res));
    res.status(201).json({ agent: await withUsage(agent!, res), deviceCode });
  });

  routes.on('listAgents', async (req, res) => {
    const q = new RestRequestReader(req);
    const flag = (name: string) => (q.query(name) === undefined ? undefined : q.boolean(name));
    const request = {
      customerId: q.query('customerId'),
      isPaused: flag('isPaused'),
      isConnected: flag('isConnected'),
      createdAfter: q.query('createdAfter'),
      createdBefore: q.query('createdBefore'),
      updatedAfter: q.query('updatedAfter'),
      updatedBefore: q.query('updatedBefore'),
      limit: q.limit(),
      cursor: q.query('cursor'),
    };
    q.done();
    const page = await peers.agents.listAgents(request, callContext(res));
    const data = await Promise.all(page.agents.map((a) => withUsage(a, res)));
    res.status(200).json(listJson(page, data, (item) => item));
  });

  routes.on('listAgentApprovals', async (req, res) => {
    const q = new RestRequestReader(req);
    const request = {
      agentId: q.query('agentId'),
      customerId: q.query('customerId'),
      startDate: q.query('startDate'),
      endDate: q.query('endDate'),
      sortOrder: q.query('sortOrder'),
      limit: q.limit(),
      cursor: q.query('cursor'),
    };
    q.done();
    const page = await peers.agentActions.listAgentApprovals(request, callContext(res));
    res.status(200).json(listJson(page, page.actions, agentActionJson));
  });

  routes.on('getAgentDeviceCodeStatus', async (req, res) => {
    res.status(200).json(await peers.agents.getDeviceCodeStatus({ code: req.params.code }, callContext(res)));
  });

  // No platform credentials: the code is the proof. Failures count against the client address.
  routes.on('redeemAgentDeviceCode', async (req, res) => {
    const attempt = await throttle?.reserve(OPAQUE, clientAddress(req));
    if (attempt && isThrottled(attempt)) {
      throw new AppError('RATE_LIMITED', 'Too many failed redemptions; try again later', { ...attempt });
    }
    const { agent, accessToken } = await peers.agents.redeemDeviceCode({ code: req.params.code }, {
      correlationId: res.locals.correlationId as string | undefined,
    })
      .catch((err: unknown) => {
        // Only an unknown code is a guess (a redeemed or expired one is a real code).
        if (isAbsent(err)) attempt?.failed();
        else attempt?.release();
        throw err;
      });
    attempt?.release();
    // The agent's first requests are its holder's: never refused for other credentials' failures.
    throttle?.rememberGood(credentialDigest(accessToken));
    res.status(200).json({
      agentId: agent!.id,
      agentName: agent!.name,
      accessToken,
      policy: policyJson(agent!.policy!),
    });
  });

  routes.on('getAgentById', async (req, res) => {
    const { agent } = await peers.agents.getAgent({ agentId: req.params.agentId }, callContext(res));
    res.status(200).json(await withUsage(agent!, res));
  });

  routes.on('updateAgent', async (req, res) => {
    const { agent } = await peers.agents.updateAgent(
      { ...bodyMessage<UpdateAgentRequest>(req, 'auth.v1.UpdateAgentRequest'), agentId: req.params.agentId },
      callContext(res),
    );
    res.status(200).json(await withUsage(agent!, res));
  });

  routes.on('deleteAgent', async (req, res) => {
    await peers.agents.deleteAgent({ agentId: req.params.agentId }, callContext(res));
    res.status(204).end();
  });

  routes.on('updateAgentPolicy', async (req, res) => {
    const { agent } = await peers.agents.updateAgentPolicy(
      {
        agentId: req.params.agentId,
        changes: withPermissionsGiven(bodyMessage<AgentPolicyInput>(req, 'auth.v1.AgentPolicyInput'), jsonBodyOf(req)),
      },
      callContext(res),
    );
    res.status(200).json(await withUsage(agent!, res));
  });

  routes.on('regenerateAgentDeviceCode', async (req, res) => {
    const { deviceCode } = await peers.agents.issueDeviceCode({ agentId: req.params.agentId }, callContext(res));
    res.status(201).json(deviceCode);
  });

  routes.on('approveAgentAction', async (req, res) => {
    const { action } = await peers.agentActions.approveAgentAction({
      agentId: req.params.agentId,
      actionId: req.params.actionId,
    }, callContext(res));
    res.status(200).json(agentActionJson(action!));
  });

  routes.on('rejectAgentAction', async (req, res) => {
    const reason = optionalBody(req).reason;
    const request = {
      agentId: req.params.agentId,
      actionId: req.params.actionId,
      reason: typeof reason === 'string' && reason ? reason : undefined,
    };
    const { action } = await peers.agentActions.rejectAgentAction(request, callContext(res));
    res.status(200).json(agentActionJson(action!));
  });

  return routes;
}
