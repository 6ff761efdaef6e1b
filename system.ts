import { randomBytes } from 'node:crypto';
import type { EventBus } from './lib/bus/event-bus';
import { openEventBus } from './lib/runtime/adapters';
import type { LocalService } from './lib/grpc/in-process-client';
import type { PortChannel } from './lib/grpc/port-transport';
import { createPeerClients, type PeerClients } from './lib/runtime/peer-clients';
import type { HostedService } from './lib/runtime/service-host';
import { SERVICE_NAMES, type ServiceName } from './lib/runtime/service-module';
import type { Logger } from './lib/log';
import type { RunningGateway } from './gateway/gateway-server';
import type { SandboxIdentity } from './gateway/sandbox-bootstrap';
import type { SandboxKeeper } from './gateway/sandbox-keeper';
import { markStart } from './lib/runtime/start-timeline';

export interface RunningSystem {
  gateway?: RunningGateway;
  /** gRPC clients of every service (tests use them to set up a second platform). */
  peers: PeerClients;
  services: HostedService[];
  /** The event bus this process's components share (tests start a second gateway replica on it). */
  bus: EventBus;
  /** The services hosted here, by fully-qualified gRPC service name (the thread transport serves them). */
  local: ReadonlyMap<string, LocalService>;
  /** Starts the outbox relays (with `relaysWhenAsked`; otherwise they run once every hosted service started). */
  startRelays(): void;
  stop(): Promise<void>;
}

export interface SystemOptions {
  /** Which components this process runs. */
  components: Array<ServiceName | 'gateway'>;
  env: NodeJS.ProcessEnv;
  logger: Logger;
  /** host:port to bind each service hosted here (port 0 = any free port). */
  bindAddress: (service: ServiceName) => string;
  /** host:port of services hosted elsewhere. */
  remoteAddresses: Partial<Record<ServiceName, string>>;
  internalToken?: string;
  /**
   * `all` mode: the MessagePort of each service's thread, called instead of gRPC (SERVICES_THREAD_TRANSPORT for the
   * gateway's).
   */
  servicePorts?: Partial<Record<ServiceName, PortChannel>>;
  /**
   * The event bus to share (the `all` mode's threads: the main thread's hub); by default one is opened (Kafka or
   * in-process).
   */
  bus?: EventBus;
  /**
   * The outbox relays wait for `startRelays()`: a service on a thread of its own starts relaying once
   * every thread's subscribers joined the bus.
   */
  relaysWhenAsked?: boolean;
  gateway?: { host: string; port: number; sandbox: SandboxIdentity };
}

/** The gateway's code; `main.ts` loads it while the services thread starts. */
export function loadGatewayModules() {
  return Promise.all([
    import('./gateway/gateway-server'),
    import('./gateway/sandbox-bootstrap'),
    import('./gateway/sandbox-keeper'),
  ]);
}

/** Starts the requested components; the all-in-one embedded mode asks for all five. */
export async function startSystem(options: SystemOptions): Promise<RunningSystem> {
  // Code is loaded for what this process runs only (a gateway alone loads no service, and back).
  const hostedNames = SERVICE_NAMES.filter((n) => options.components.includes(n));
  const { SERVICE_REGISTRY } = hostedNames.length
    ? await import('./services/service-registry')
    : { SERVICE_REGISTRY: undefined };
  const registrations = await Promise.all(hostedNames.map((name) => SERVICE_REGISTRY![name]()));
  const { hostService } = hostedNames.length ? await import('./lib/runtime/service-host') : { hostService: undefined };
  if (hostedNames.length) markStart('services: service modules loaded');
  // Each service's settings and keys, before any store or broker is waited for.
  for (const registration of registrations) registration.checkSettings(options.env);
  const internalToken = options.internalToken ?? randomBytes(32).toString('base64url');
  const addresses: Partial<Record<ServiceName, string>> = { ...options.remoteAddresses };
  // The gateway reaches every service over gRPC (or its thread's port); services reach the ones hosted
  // beside them in-process, those on other threads of this process over their ports.
  const peers = createPeerClients(addresses, internalToken, new Map(), options.servicePorts);
  const local = new Map<string, LocalService>();
  const servicePeers = createPeerClients(addresses, internalToken, local, options.servicePorts);
  const bus = options.bus ?? openEventBus(options.env, 'grid-payments', options.logger);
  // The services start side by side (each opens its store and binds its port); a peer is called
  // in-process once it has started, and by address until then.
  const started = await Promise.allSettled(hostedNames.map(async (name, i) => {
    const hosted = await hostService!({
      name,
      factory: registrations[i].factory,
      address: options.bindAddress(name),
      internalToken,
      bus,
      peers: servicePeers,
      logger: options.logger,
      env: options.env,
    });
    addresses[name] = hosted.address;
    for (const [service, served] of hosted.local) local.set(service, served);
    return hosted;
  }));
  const services = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    for (const hosted of services) await hosted.stop().catch(() => undefined);
    throw failed.reason;
  }
  const startRelays = () => {
    for (const hosted of services) hosted.startRelay();
  };
  if (!options.relaysWhenAsked) startRelays();

  let gateway: RunningGateway | undefined;
  let sandbox: SandboxKeeper | undefined;
  if (options.gateway) {
    const [{ startGateway }, { ensureSandbox }, { createSandboxKeeper }] = await loadGatewayModules();
    markStart('gateway: modules loaded');
    const keeper = (sandbox = createSandboxKeeper(peers, options.gateway.sandbox, options.logger));
    // The gateway listens at once and answers 503 until the sandbox credentials exist.
    const sandboxReady = ensureSandbox(peers, options.gateway.sandbox, options.logger);
    const started = startGateway({
      host: options.gateway.host,
      port: options.gateway.port,
      peers,
      logger: options.logger,
      env: options.env,
      bus,
      serviceAddresses: SERVICE_NAMES.map((n) => addresses[n]).filter((a): a is string => !!a),
      services: addresses,
      canAuthenticate: () => keeper.authenticates(),
      opensWhen: sandboxReady,
    });
    sandboxReady.catch(() => undefined); // awaited below, once the gateway listens (a taken port ends the start first)
    gateway = await started;
    markStart('gateway: listening');
    await sandboxReady;
    markStart('gateway: sandbox credentials ensured (open)');
    keeper.start();
  }

  return {
    gateway,
    peers,
    services,
    bus,
    local,
    startRelays,
    async stop() {
      await sandbox?.stop();
      await gateway?.stop();
      for (const s of services) await s.stop();
      peers.closeAll();
      servicePeers.closeAll();
      await bus.close();
    },
  };
}
