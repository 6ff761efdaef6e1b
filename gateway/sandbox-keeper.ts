import { AppError, isAbsent } from '../lib/errors';
import type { Logger } from '../lib/log';
import type { PeerClients } from '../lib/runtime/peer-clients';
import { createPeriodicTask } from '../lib/runtime/periodic-task';
import { untraced } from '../lib/telemetry';
import type { SandboxIdentity } from './sandbox-bootstrap';

export interface SandboxKeeper {
  /** True when the sandbox credentials authenticate now; re-creates them first when auth lost them. */
  authenticates(): Promise<boolean>;
  start(): void;
  stop(): Promise<void>;
}

/**
 * The gateway makes sure the sandbox credentials work for as long as it runs, not only at its start:
 * an auth service that came back without them (a new embedded store, a restored database) gets the
 * platform and token ensured again, within `intervalMs` or at the next readiness probe.
 */
export function createSandboxKeeper(
  peers: PeerClients,
  identity: SandboxIdentity,
  logger: Logger,
  intervalMs = 5_000,
): SandboxKeeper {
  let inFlight: Promise<boolean> | undefined;
  const ensure = async () => {
    await peers.accounts.ensurePlatform({
      platformId: identity.platformId,
      name: 'Sandbox platform',
      embeddedWallets: true,
    });
    const { created } = await peers.apiTokens.ensureSandboxToken({
      platformId: identity.platformId,
      tokenId: identity.tokenId,
      clientSecret: identity.clientSecret,
    });
    if (created) {
      logger.warn('sandbox API token was missing and has been re-created', {
        apiTokenId: identity.tokenId,
        platformId: identity.platformId,
      });
    }
  };
  const check = async (): Promise<boolean> => {
    try {
      await peers.apiTokens.authenticateApiToken({ tokenId: identity.tokenId, clientSecret: identity.clientSecret });
      return true;
    } catch (err) {
      // auth unreachable
      if (!(err instanceof AppError) || !(err.code === 'UNAUTHORIZED' || isAbsent(err))) return false;
    }
    try {
      await ensure();
      await peers.apiTokens.authenticateApiToken({ tokenId: identity.tokenId, clientSecret: identity.clientSecret });
      return true;
    } catch (err) {
      logger.warn('sandbox credentials cannot be re-created yet', { err });
      return false;
    }
  };
  const authenticates = () => (inFlight ??= check().finally(() => (inFlight = undefined)));
  const task = createPeriodicTask({
    name: 'sandbox credentials check',
    intervalMs,
    logger,
    run: () => untraced(authenticates),
  });
  return { authenticates, start: () => task.start(), stop: () => task.stop() };
}
