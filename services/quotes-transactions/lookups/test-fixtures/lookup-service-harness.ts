import { LookupServiceService } from '../../../../gen/quotes_transactions/v1/lookup';
import { createFakeScaBinding } from '../../test-fixtures/fake-sca-service';
import { createInProcessEventBus } from '../../../../lib/bus/in-process-event-bus';
import { createServiceClient } from '../../../../lib/grpc/grpc-client';
import { startGrpcServer, type RunningGrpcServer } from '../../../../lib/grpc/grpc-server';
import { silentLogger } from '../../../../lib/log';
import { createPeerClients } from '../../../../lib/runtime/peer-clients';
import type { ServiceName } from '../../../../lib/runtime/service-module';
import { createEmbeddedDocumentStore } from '../../../../lib/store/embedded-document-store';
import { createQuotesTransactionsService } from '../../quotes-transactions-service';
import { createFakeAccountsService } from './fake-accounts-service';

const INTERNAL_TOKEN = 'quotes-transactions-test-token';

/** The quotes-transactions service and a fake accounts service, each on its own gRPC server on port 0. */
export async function startLookupService(options: { accountsAddress?: string } = {}) {
  const accounts = createFakeAccountsService();
  const servers: RunningGrpcServer[] = [];
  const start = async (name: string, bindings: Parameters<typeof startGrpcServer>[0]['bindings']) => {
    const server = await startGrpcServer({
      name,
      bindings,
      internalToken: INTERNAL_TOKEN,
      logger: silentLogger,
      address: '127.0.0.1:0',
    });
    servers.push(server);
    return server.address;
  };

  const addresses: Partial<Record<ServiceName, string>> = {};
  const peers = createPeerClients(addresses, INTERNAL_TOKEN);
  addresses.accounts = options.accountsAddress ?? (await start('accounts', [accounts.binding, createFakeScaBinding()]));
  const service = createQuotesTransactionsService({
    store: createEmbeddedDocumentStore(),
    bus: createInProcessEventBus(),
    logger: silentLogger,
    peers,
    env: {},
  });
  addresses['quotes-transactions'] = await start(service.name, service.bindings);
  const client = createServiceClient(LookupServiceService, addresses['quotes-transactions'], {
    internalToken: INTERNAL_TOKEN,
  });

  return {
    accounts,
    client,
    async stop() {
      client.close();
      peers.closeAll();
      await Promise.all(servers.map((s) => s.shutdown(100)));
    },
  };
}
