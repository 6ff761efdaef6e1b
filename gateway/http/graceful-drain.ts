import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

/**
 * How the gateway stops on SIGTERM without losing an answer:
 * 1. it stops accepting connections (the listening socket closes at once);
 * 2. every response not yet started, and every request arriving on an open keep-alive connection
 *    from then on, is answered with `Connection: close`, after which Node closes that connection;
 * 3. connections that sit idle are closed after a short linger (a request already on its way on
 *    one is still read and answered), and again whenever one falls idle;
 * 4. once no connection is left, or the grace period has passed, it returns; only then are the
 *    connections still open cut (and counted in the log).
 */
export interface Drain {
  readonly draining: boolean;
  /** Resolves with the number of connections that had to be cut at the end of the grace period. */
  drain(graceMs: number): Promise<number>;
}

/** An idle keep-alive connection may carry a request the client sent just before the drain began. */
const IDLE_LINGER_MS = 1_000;
const IDLE_SWEEP_MS = 100;

export function trackForDrain(server: Server): Drain {
  let draining = false;
  const responses = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // Before the application's own listener, so a response it writes at once already carries the header.
  server.prependListener('request', (_req, res: ServerResponse) => {
    if (draining) res.shouldKeepAlive = false;
    responses.add(res);
    res.once('close', () => responses.delete(res));
  });

  return {
    get draining() {
      return draining;
    },
    async drain(graceMs) {
      draining = true;
      for (const res of responses) if (!res.headersSent) res.shouldKeepAlive = false;
      // net.Server's close stops accepting; http.Server's would also close idle connections at once.
      NetServer.prototype.close.call(server);
      const deadline = Date.now() + graceMs;
      const lingerEnds = Date.now() + Math.min(IDLE_LINGER_MS, graceMs);
      while (sockets.size > 0 && Date.now() < deadline) {
        if (Date.now() >= lingerEnds) server.closeIdleConnections();
        await new Promise((resolve) => setTimeout(resolve, IDLE_SWEEP_MS));
      }
      const cut = sockets.size;
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
      server.close(); // http.Server's own close: stops its connection-timeout checks
      return cut;
    },
  };
}
