import { AgentServiceService } from '../../../gen/auth/v1/agents';
import { requirePlatform } from '../../../lib/grpc/call-context';
import { bindService } from '../../../lib/grpc/service-binding';
import { decodePageCursor, nextPageCursor, pageLimit } from '../../../lib/page-cursor';
import type { Agents } from '../app/agents/agents';
import type { Permission } from '../domain/agents/agent-policy';
import { agentMessage, policyInputOf } from './agent-messages';

const present = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);

export function bindAgentService(agents: Agents) {
  return bindService(AgentServiceService, {
    async createAgent(request, ctx) {
      const { agent, deviceCode } = await agents.create(requirePlatform(ctx), {
        name: request.name,
        customerId: present(request.customerId),
        policy: policyInputOf(request.policy),
      });
      return { agent: agentMessage(agent), deviceCode };
    },
    async listAgents(request, ctx) {
      const limit = pageLimit(request.limit);
      const cursor = present(request.cursor);
      const page = await agents.list(requirePlatform(ctx), {
        customerId: present(request.customerId),
        isPaused: request.isPaused,
        isConnected: request.isConnected,
        createdAfter: present(request.createdAfter),
        createdBefore: present(request.createdBefore),
        updatedAfter: present(request.updatedAfter),
        updatedBefore: present(request.updatedBefore),
        limit,
        ...(cursor ? { after: decodePageCursor(cursor) } : {}),
      });
      return {
        agents: page.agents.map(agentMessage),
        hasMore: page.hasMore,
        totalCount: page.totalCount,
        nextCursor: nextPageCursor(page.agents, page.hasMore),
      };
    },
    async getAgent(request, ctx) {
      return { agent: agentMessage(await agents.get(requirePlatform(ctx), request.agentId)) };
    },
    async updateAgent(request, ctx) {
      return {
        agent: agentMessage(
          await agents.update(requirePlatform(ctx), request.agentId, {
            name: request.name,
            isPaused: request.isPaused,
          }),
        ),
      };
    },
    async deleteAgent(request, ctx) {
      await agents.remove(requirePlatform(ctx), request.agentId);
      return {};
    },
    async updateAgentPolicy(request, ctx) {
      return {
        agent: agentMessage(
          await agents.updatePolicy(requirePlatform(ctx), request.agentId, policyInputOf(request.changes) ?? {}),
        ),
      };
    },
    async issueDeviceCode(request, ctx) {
      return { deviceCode: await agents.issueDeviceCode(requirePlatform(ctx), request.agentId) };
    },
    async getDeviceCodeStatus(request, ctx) {
      return agents.deviceCodeStatus(requirePlatform(ctx), request.code);
    },
    async redeemDeviceCode(request) {
      const { agent, accessToken } = await agents.redeem(request.code);
      return { agent: agentMessage(agent), accessToken };
    },
    async authenticateAgent(request) {
      const agent = await agents.authenticate(request.accessToken, {
        permission: request.permission && request.permission !== 'PERMISSION_UNSPECIFIED'
          ? (request.permission as Permission)
          : undefined,
        allowPaused: request.allowPaused,
      });
      return { agent: agentMessage(agent) };
    },
  });
}
