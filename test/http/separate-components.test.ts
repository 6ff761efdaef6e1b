import { silentLogger } from '../../lib/log';
import type { ServiceName } from '../../lib/runtime/service-module';
import { DEFAULT_SANDBOX } from '../../gateway/sandbox-bootstrap';
import { startSystem, type RunningSystem } from '../../system';
import { basicAuthHeader } from '../system-harness';

/** The gateway and each service as separate components that know each other only by address. */
const TOKEN = 'internal-token-shared-by-components';
const env = { ...process.env, MONGODB_URI: '', KAFKA_BROKERS: '', DATA_DIR: ':memory:' };
const started: RunningSystem[] = [];

afterAll(async () => {
  for (const s of started.reverse()) await s.stop();
});

test('each service and the gateway run as separate components that reach each other by address', async () => {
  const addresses: Partial<Record<ServiceName, string>> = {};
  const services: ServiceName[] = ['auth', 'accounts', 'quotes-transactions', 'notifications'];
  // Services first bind to free ports; each is its own component with the others remote.
  for (const name of services) {
    const component = await startSystem({
      components: [name],
      env,
      logger: silentLogger,
      internalToken: TOKEN,
      bindAddress: () => '127.0.0.1:0',
      remoteAddresses: addresses,
    });
    addresses[name] = component.services[0].address;
    started.push(component);
  }
  const gateway = await startSystem({
    components: ['gateway'],
    env,
    logger: silentLogger,
    internalToken: TOKEN,
    bindAddress: () => '127.0.0.1:0',
    remoteAddresses: addresses,
    gateway: { host: '127.0.0.1', port: 0, sandbox: DEFAULT_SANDBOX },
  });
  started.push(gateway);
  const base = `http://127.0.0.1:${gateway.gateway!.port}`;
  expect((await fetch(`${base}/readyz`)).status).toBe(200);
  const res = await fetch(`${base}/2025-10-13/customers`, {
    method: 'POST',
    headers: {
      authorization: basicAuthHeader(DEFAULT_SANDBOX.tokenId, DEFAULT_SANDBOX.clientSecret),
      'content-type': 'application/json',
    },
    body: JSON.stringify({
      customerType: 'INDIVIDUAL',
      platformCustomerId: 'separate-1',
      fullName: 'Separate Components',
    }),
  });
  expect(res.status).toBe(201);
});

test('a component presenting the wrong internal token is refused', async () => {
  const auth = started.find((s) => s.services[0]?.name === 'auth')!;
  const stranger = await startSystem({
    components: ['gateway'],
    env,
    logger: silentLogger,
    internalToken: 'not-the-token',
    bindAddress: () => '127.0.0.1:0',
    remoteAddresses: { auth: auth.services[0].address },
  });
  started.push(stranger);
  await expect(stranger.peers.apiTokens.authenticateApiToken({ tokenId: 'x', clientSecret: 'y' })).rejects
    .toMatchObject({ code: 'UNAUTHORIZED' });
});
