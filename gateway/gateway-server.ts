import type { Server } from 'node:http';
import type { Logger } from '../lib/log';
import { createHealthProbe } from '../lib/grpc/health-probe';
import type { PeerClients } from '../lib/runtime/peer-clients';
import { createGatewayApp } from './gateway-app';

export interface RunningGateway {
  port: number;
  /** Stops accepting connections and waits for in-flight requests. */
  stop(): Promise<void>;
}

export async function startGateway(options: {
  host: string;
  port: number;
  peers: PeerClients;
  serviceAddresses: string[];
  logger: Logger;
}): Promise<RunningGateway> {
  const probes = options.serviceAddresses.map(createHealthProbe);
  const servicesReady = async () => (await Promise.all(probes.map((p) => p.isServing()))).every(Boolean);
  const app = createGatewayApp({ peers: options.peers, logger: options.logger, servicesReady });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(options.port, options.host, () => resolve(s));
  });
  server.keepAliveTimeout = 65000;
  server.headersTimeout = 66000;
  server.requestTimeout = 30000;
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  options.logger.info('gateway listening', { component: 'gateway', url: `http://${options.host}:${port}` });
  return {
    port,
    async stop() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await Promise.race([closed, new Promise((r) => setTimeout(r, 10000).unref())]);
      server.closeAllConnections();
      probes.forEach((p) => p.close());
    },
  };
}
