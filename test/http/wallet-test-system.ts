import type { PeerClients } from '../../lib/runtime/peer-clients';
import { startTestSystem, type TestSystem } from '../system-harness';

export interface WalletTestSystem extends TestSystem {
  /** The auth and notifications gRPC APIs, as the accounts service calls them. */
  walletAuth: PeerClients['walletAuth'];
  signedRetry: PeerClients['signedRetry'];
  delivery: PeerClients['delivery'];
  platformId: string;
}

export async function startWalletTestSystem(env: NodeJS.ProcessEnv = {}): Promise<WalletTestSystem> {
  const sys = await startTestSystem({ env });
  const { peers } = sys.system;
  return Object.assign(sys, {
    walletAuth: peers.walletAuth,
    signedRetry: peers.signedRetry,
    delivery: peers.delivery,
    platformId: sys.sandbox.platformId,
  });
}
