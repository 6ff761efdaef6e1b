import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { startTestSystem, type TestSystem } from '../system-harness';

/**
 * One client holding every socket it can (re-opening each one closed) cannot
 * starve a polite client at another address. The default suite runs a small version (caps of 60
 * connections and 20 per address, 80 greedy sockets); EDGE_LONG=1 runs the full figures with the
 * default caps (1,024 and 256): 1,100 greedy sockets, 60 polite requests. The success rate is printed.
 */
const LONG = process.env.EDGE_LONG === '1';
const GREEDY_SOCKETS = LONG ? 1_100 : 80;
const POLITE_REQUESTS = LONG ? 60 : 20;

let sys: TestSystem;
beforeAll(async () => {
  sys = await startTestSystem({
    env: LONG ? {} : { GATEWAY_MAX_CONNECTIONS: '60', GATEWAY_MAX_CONNECTIONS_PER_ADDRESS: '20' },
  });
}, 120_000);
afterAll(() => sys.stop());

/** Holds `count` idle sockets from 127.0.0.1, re-opening each one the gateway closes, until stopped. */
function greedyClient(port: number, count: number) {
  let running = true;
  let reopened = 0;
  const sockets = new Set<Socket>();
  const open = () => {
    if (!running || reopened > 500_000) return;
    const socket = connect({ port, host: '127.0.0.1', localAddress: '127.0.0.1' });
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      sockets.delete(socket);
      reopened++;
      setImmediate(open);
    });
  };
  for (let i = 0; i < count; i++) open();
  return {
    held: () => [...sockets].filter((s) => !s.connecting && !s.destroyed).length,
    stop() {
      running = false;
      sockets.forEach((s) => s.destroy());
    },
  };
}

/** One request on a new connection from 127.0.0.2 (another client address on loopback): whether it was answered 200. */
function politeRequest(port: number, auth: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({
      host: '127.0.0.1',
      port,
      localAddress: '127.0.0.2',
      path: '/2025-10-13/customers?limit=1',
      agent: false,
      headers: { authorization: auth },
      timeout: 5_000,
    }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200));
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

test(`a polite client is served while a greedy one holds ${GREEDY_SOCKETS} sockets`, async () => {
  const port = sys.system.gateway!.port;
  const polite = await sys.createPlatform();
  const greedy = greedyClient(port, GREEDY_SOCKETS);
  try {
    // The greedy client holds every connection its address is allowed before the polite one starts.
    const cap = LONG ? 256 : 20;
    const deadline = Date.now() + 30_000;
    while (greedy.held() < cap && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    let served = 0;
    for (let i = 0; i < POLITE_REQUESTS; i++) if (await politeRequest(port, polite.auth)) served++;
    console.log(
      `polite client: ${served}/${POLITE_REQUESTS} answered 200 while the `
        + `greedy client held ${greedy.held()} of its ${GREEDY_SOCKETS} sockets`,
    );
    expect(served).toBe(POLITE_REQUESTS);
  } finally {
    greedy.stop();
  }
}, LONG ? 600_000 : 120_000);
