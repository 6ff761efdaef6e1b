import { createServer, type Server } from 'node:http';
import type { EventBus } from '../lib/bus/event-bus';
import type { Logger } from '../lib/log';
import { createHealthProbe } from '../lib/grpc/health-probe';
import type { ServiceName } from '../lib/runtime/service-module';
import { checkReadiness } from './http/readiness';
import type { PeerClients } from '../lib/runtime/peer-clients';
import { createGatewayApp } from './gateway-app';
import { readRunMode } from '../lib/config';
import { readAuthThrottleLimits } from './http/auth-throttle-settings';
import { createCredentialCache, CREDENTIALS_GROUP, forgetDeletedTokens } from './http/credential-cache';
import { replicaGroup } from '../lib/runtime/replica-group';
import { readEdgeSettings } from './http/edge-settings';
import { trackForDrain } from './http/graceful-drain';
import { answerClientErrors, readHttpLimits, serverOptions } from './http/http-server-limits';
import { AddressInUseError } from '../lib/runtime/start-checks';

export interface RunningGateway {
  port: number;
  /**
   * Stops accepting connections, answers every request already received (with `Connection: close`),
   * closes idle connections, and returns once none is left or GATEWAY_SHUTDOWN_GRACE_MS has passed.
   */
  stop(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (err: NodeJS.ErrnoException) =>
      reject(err.code === 'EADDRINUSE' ? new AddressInUseError(`${host}:${port}`) : err);
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
}

export async function startGateway(options: {
  host: string;
  port: number;
  peers: PeerClients;
  serviceAddresses: string[];
  /**
   * The services by name (replaces serviceAddresses): readiness needs those on the payment path, notifications only
   * degrades.
   */
  services?: Partial<Record<ServiceName, string>>;
  logger: Logger;
  env?: NodeJS.ProcessEnv;
  /** Where token deletions arrive from every replica (Kafka across processes). */
  bus?: EventBus;
  /** Readiness also needs the sandbox credentials to authenticate (the gateway's own check). */
  canAuthenticate?: () => Promise<boolean>;
  /** Settles when the gateway can authenticate (the sandbox credentials exist); API requests get 503 until then. */
  opensWhen?: Promise<unknown>;
}): Promise<RunningGateway> {
  const env = options.env ?? {};
  const limits = readHttpLimits(env);
  const named = options.services ?? Object.fromEntries(options.serviceAddresses.map((a, i) => [`service-${i + 1}`, a]));
  const probes = Object.entries(named).filter((e): e is [string, string] => !!e[1]).map(([name, address]) => ({
    name,
    ...createHealthProbe(address),
  }));
  let drain: ReturnType<typeof trackForDrain> | undefined;
  const readiness = () =>
    checkReadiness({ draining: () => drain?.draining ?? false, probes, canAuthenticate: options.canAuthenticate });
  const servicesReady = async () => (await readiness()).ready;
  const credentialCache = createCredentialCache();
  let open = !options.opensWhen;
  options.opensWhen?.then(() => {
    open = true;
  }, () => undefined);
  const app = createGatewayApp({
    acceptsRequests: () => open,
    peers: options.peers,
    logger: options.logger,
    servicesReady,
    readiness,
    authThrottle: readAuthThrottleLimits(env),
    credentialCache,
    edge: readEdgeSettings(env),
    sandbox: readRunMode(env) === 'sandbox',
  });
  const server = createServer(serverOptions(limits), app);
  answerClientErrors(server, limits);
  drain = trackForDrain(server);
  await listen(server, options.port, options.host);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  // Joined in the background (a Kafka group join takes seconds); this gateway forgets its own deletions at once
  // meanwhile.
  const deletions = options.bus
    ? forgetDeletedTokens(options.bus, credentialCache, replicaGroup(CREDENTIALS_GROUP, env, port), options.logger)
      .catch((err: unknown) => {
        options.logger.error(
          'gateway could not subscribe to API-token deletions; other '
            + "replicas' deletions reach it only when its cache expires",
          { component: 'gateway', err },
        );
        return undefined;
      })
    : undefined;
  options.logger.info('gateway listening', { component: 'gateway', url: `http://${options.host}:${port}` });
  return {
    port,
    async stop() {
      const started = Date.now();
      const cut = await drain!.drain(limits.GATEWAY_SHUTDOWN_GRACE_MS);
      if (cut > 0) {
        options.logger.warn('gateway drain: grace period over, connections cut', {
          component: 'gateway',
          cut,
          graceMs: limits.GATEWAY_SHUTDOWN_GRACE_MS,
        });
      } else options.logger.info('gateway drained', { component: 'gateway', ms: Date.now() - started });
      probes.forEach((p) => p.close());
      await (await deletions)?.close();
    },
  };
}
