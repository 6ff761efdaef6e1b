import { unlessAbsent } from '../../../../lib/errors';
import type { PeerClients } from '../../../../lib/runtime/peer-clients';
import type { AgentRegistry } from '../app/agent-approvals';

/** Whether an agent still exists, asked of the auth service, which owns agents. */
export function createAgentsPeerRegistry(peers: Pick<PeerClients, 'agents'>): AgentRegistry {
  return {
    async exists(platformId, agentId) {
      return (await unlessAbsent(peers.agents.getAgent({ agentId }, { platformId }))) !== undefined;
    },
  };
}
