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
    /** Agents one platform may hold; one more answers 409. */
    AUTH_MAX_AGENTS_PER_PLATFORM: setting.int(1_000, 1, 1_000_000),
    /** Device codes (a new agent's, or regenerated) one platform may issue per hour; beyond: 429. */
    AUTH_MAX_DEVICE_CODES_PER_PLATFORM_PER_HOUR: setting.int(1_000, 1, 1_000_000),
  }, environment.env);
  const store = createAgentDocumentStore(environment.store);
  const agents = createAgents({
    store,
    clock: () => new Date(),
    deviceCodeTtlMs: config.AGENT_DEVICE_CODE_TTL_SECONDS * 1000,
    quotas: {
      agentsPerPlatform: config.AUTH_MAX_AGENTS_PER_PLATFORM,
      deviceCodesPerPlatformPerHour: config.AUTH_MAX_DEVICE_CODES_PER_PLATFORM_PER_HOUR,
    },
    customerExists: async (platformId, customerId) => {
      const customer = (await unlessAbsent(environment.peers.accounts.getCustomer({ id: customerId }, { platformId })))
        ?.customer;
      if (customer?.isDeleted) throw new AppError('CUSTOMER_DELETED', `Customer ${customerId} has been deleted`);
      return !!customer;
    },
  });
  return { binding: bindAgentService(agents), start: () => store.ensureIndexes() };
}
