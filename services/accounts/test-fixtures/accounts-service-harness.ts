import { AccountsServiceService } from '../../../gen/accounts/v1/accounts';
import { createInProcessEventBus } from '../../../lib/bus/in-process-event-bus';
import { createServiceClient } from '../../../lib/grpc/grpc-client';
import { startGrpcServer } from '../../../lib/grpc/grpc-server';
import { newId } from '../../../lib/ids';
import { silentLogger } from '../../../lib/log';
import { createPeerClients } from '../../../lib/runtime/peer-clients';
import { createEmbeddedDocumentStore } from '../../../lib/store/embedded-document-store';
import { createAccountsService } from '../accounts-service';

const INTERNAL_TOKEN = 'accounts-test-token';

/** The accounts service on a real gRPC server on port 0, over the embedded store. */
export async function startAccountsService(env: NodeJS.ProcessEnv = {}) {
  const store = createEmbeddedDocumentStore();
  const peers = createPeerClients({}, INTERNAL_TOKEN);
  const module = createAccountsService({ store, bus: createInProcessEventBus(), logger: silentLogger, peers, env });
  await module.start?.();
  const server = await startGrpcServer({
    name: module.name, bindings: module.bindings, internalToken: INTERNAL_TOKEN, logger: silentLogger, address: '127.0.0.1:0',
  });
  const client = createServiceClient(AccountsServiceService, server.address, { internalToken: INTERNAL_TOKEN });
  return {
    client,
    store,
    module,
    /** A new platform, ensured, and the call context that acts as it. */
    async newPlatform() {
      const platformId = newId('Platform');
      await client.ensurePlatform({ platformId, name: 'Test platform' });
      return { platformId };
    },
    async stop() {
      client.close();
      await server.shutdown(100);
      await module.stop?.();
    },
  };
}

export type AccountsHarness = Awaited<ReturnType<typeof startAccountsService>>;
