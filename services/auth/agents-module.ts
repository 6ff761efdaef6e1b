import { AppError, unlessAbsent } from '../../lib/errors';
import { readConfig, setting } from '../../lib/config';
import type { ServiceEnvironment } from '../../lib/runtime/service-module';
import { createAgents } from './app/agents/agents';
import { bindAgentService } from './grpc/agent-handlers';
import { createAgentDocumentStore } from './store/agent-document-store';

/** Agents: settings, the use cases and their binding. */
export function createAgentsModule(environment: ServiceEnvironment) {
  const config = readConfig({
    /** How long an agent's device code can be redeemed. */
    AGENT_DEVICE_CODE_TTL_SECONDS: setting.int(86_400, 1, 30 * 86_400),
  }, environment.env);
  const store = createAgentDocumentStore(environment.store);
  const agents = createAgents({
    store,
    clock: () => new Date(),
    deviceCodeTtlMs: config.AGENT_DEVICE_CODE_TTL_SECONDS * 1000,
    customerExists: async (platformId, customerId) => {
      const customer = (await unlessAbsent(environment.peers.accounts.getCustomer({ id: customerId }, { platformId })))?.customer;
      if (customer?.isDeleted) throw new AppError('CUSTOMER_DELETED', `Customer ${customerId} has been deleted`);
      return !!customer;
    },
  });
  return { binding: bindAgentService(agents), start: () => store.ensureIndexes() };
}
