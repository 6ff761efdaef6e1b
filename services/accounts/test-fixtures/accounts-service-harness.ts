import { AccountsServiceService } from '../../../gen/accounts/v1/accounts';
import { createInProcessEventBus } from '../../../lib/bus/in-process-event-bus';
import { createServiceClient } from '../../../lib/grpc/grpc-client';
import { startGrpcServer } from '../../../lib/grpc/grpc-server';
import { newId } from '../../../lib/ids';
import { silentLogger } from '../../../lib/log';
import { createPeerClients } from '../../../lib/runtime/peer-clients';
import type { DocumentStore } from '../../../lib/store/document-store';
import { createEmbeddedDocumentStore } from '../../../lib/store/embedded-document-store';
import { createAccountsService } from '../accounts-service';
import { startFakePeers } from './fake-peer-services';

const INTERNAL_TOKEN = 'accounts-test-token';

export interface HarnessOptions {
  /** The store the service runs on (default: a fresh embedded store). */
  store?: DocumentStore;
  /** Whether the fake quotes-transactions serves LedgerService (default true). */
  ledger?: boolean;
}

/**
 * The accounts service on a real gRPC server on port 0, over the embedded store, with fake auth
 * (ProvisionWallet) and ledger (GetBalances) peers on another real server. Background repair
 * sweeps are off unless the test sets ACCOUNTS_REPAIR_INTERVAL_MS; tests call `repair.sweep()`.
 */
export async function startAccountsService(env: NodeJS.ProcessEnv = {}, options: HarnessOptions = {}) {
  const store = options.store ?? createEmbeddedDocumentStore();
  const fakes = await startFakePeers({ token: INTERNAL_TOKEN, ledger: options.ledger ?? true });
  const peers = createPeerClients({ auth: fakes.address, 'quotes-transactions': fakes.address }, INTERNAL_TOKEN);
  const module = createAccountsService({
    store,
    bus: createInProcessEventBus(),
    logger: silentLogger,
    peers,
    env: { ACCOUNTS_REPAIR_INTERVAL_MS: '0', DATA_DIR: ':memory:', ...env },
  });
  await module.start?.();
  const server = await startGrpcServer({
    name: module.name,
    bindings: module.bindings,
    internalToken: INTERNAL_TOKEN,
    logger: silentLogger,
    address: '127.0.0.1:0',
  });
  const client = createServiceClient(AccountsServiceService, server.address, { internalToken: INTERNAL_TOKEN });
  return {
    client,
    store,
    module,
    repair: module.repair,
    walletAuth: fakes.walletAuth,
    signedRetry: fakes.signedRetry,
    ledger: fakes.ledger,
    /** A new platform, ensured, and the call context that acts as it. */
    async newPlatform() {
      const platformId = newId('Platform');
      await client.ensurePlatform({ platformId, name: 'Test platform' });
      return { platformId };
    },
    async stop() {
      client.close();
      peers.closeAll();
      await server.shutdown(100);
      await module.stop?.();
      await fakes.stop();
    },
  };
}

export type AccountsHarness = Awaited<ReturnType<typeof startAccountsService>>;
