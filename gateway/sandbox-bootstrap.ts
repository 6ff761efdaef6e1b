import { isInternalTokenRefused } from '../lib/grpc/service-binding';
import type { Logger } from '../lib/log';
import type { PeerClients } from '../lib/runtime/peer-clients';
import { markStart } from '../lib/runtime/start-timeline';
import type { SandboxIdentity } from './sandbox-identity';

export { DEFAULT_SANDBOX, type SandboxIdentity } from './sandbox-identity';

/**
 * Idempotently ensures the sandbox platform and its API token. Retries while the services are
 * still starting (separate processes come up in any order).
 */
export async function ensureSandbox(
  peers: PeerClients,
  identity: SandboxIdentity,
  logger: Logger,
  attempts = 30,
): Promise<void> {
  for (let attempt = 1;; attempt++) {
    try {
      await peers.accounts.ensurePlatform({
        platformId: identity.platformId,
        name: 'Sandbox platform',
        embeddedWallets: true,
      });
      markStart('gateway: sandbox platform ensured');
      const { created } = await peers.apiTokens.ensureSandboxToken({
        platformId: identity.platformId,
        tokenId: identity.tokenId,
        clientSecret: identity.clientSecret,
      });
      logger.info('sandbox API token active', {
        apiTokenId: identity.tokenId,
        platformId: identity.platformId,
        created,
      });
      return;
    } catch (err) {
      if (isInternalTokenRefused(err)) {
        throw new Error(
          "the services refuse this gateway's INTERNAL_TOKEN: every component must be given the same INTERNAL_TOKEN",
        );
      }
      if (attempt >= attempts) throw err;
      logger.warn('sandbox bootstrap waiting for services', { attempt });
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}
