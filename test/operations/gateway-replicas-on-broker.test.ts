import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startKafkaMockCluster, type KafkaMockCluster } from '../kafka-mock/kafka-mock-cluster';
import { killSystemProcess, startComponentProcess, type SystemProcess } from '../reliability/system-process';
import { freePort } from '../fixtures/free-port';
import { environmentOf, renderOverlay, SECRETS } from './rendered-overlay';

/**
 * The production overlay's components as separate processes on a Kafka-protocol broker (librdkafka's
 * mock cluster), each started with the environment its rendered Deployment gives it: brokers moved to
 * the mock, addresses to loopback, the embedded store in a data directory instead of MongoDB (no
 * server runs here). Two gateway replicas, as the production overlay runs them.
 */
jest.setTimeout(12 * 60_000);

const SERVICES = ['auth', 'accounts', 'quotes-transactions', 'notifications'] as const;
const ADDRESS_VARS = {
  auth: 'AUTH_ADDRESS',
  accounts: 'ACCOUNTS_ADDRESS',
  'quotes-transactions': 'QUOTES_TRANSACTIONS_ADDRESS',
  notifications: 'NOTIFICATIONS_ADDRESS',
} as const;
const TOPICS = [
  'accounts.events.v1:3',
  'auth.events.v1:3',
  'auth.api-tokens.v1:3',
  'payments.events.v1:3',
  'notifications.events.v1:3',
];
const GATEWAYS = ['gateway-a', 'gateway-b'] as const;
type Replica = (typeof SERVICES)[number] | (typeof GATEWAYS)[number];

const production = renderOverlay('overlays/production');
let cluster: KafkaMockCluster;
let dataRoot: string;
let envOf: (replica: Replica) => NodeJS.ProcessEnv;
const running = new Map<Replica, SystemProcess>();
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const operator = basic(SECRETS.SANDBOX_API_TOKEN_ID, SECRETS.SANDBOX_API_CLIENT_SECRET);

async function start(replica: Replica): Promise<void> {
  running.set(
    replica,
    await startComponentProcess(replica.startsWith('gateway') ? 'gateway' : replica, envOf(replica), 180_000),
  );
}

async function stop(replica: Replica, signal: NodeJS.Signals): Promise<void> {
  const child = running.get(replica);
  running.delete(replica);
  if (child) await killSystemProcess(child, signal);
}

const url = (replica: Replica) => `${running.get(replica)!.rootUrl}/2025-10-13`;

async function until<T>(
  what: string,
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined as T);
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms (last: ${JSON.stringify(value)})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  cluster = await startKafkaMockCluster(TOPICS, { trackGroups: true });
  dataRoot = mkdtempSync(join(tmpdir(), 'grid-production-replicas-'));
  const addresses = Object.fromEntries(
    await Promise.all(SERVICES.map(async (s) => [ADDRESS_VARS[s], `127.0.0.1:${await freePort()}`])),
  );
  const ports = { 'gateway-a': String(await freePort()), 'gateway-b': String(await freePort()) };
  const onThisMachine = {
    ...addresses,
    KAFKA_BROKERS: cluster.brokers.join(','),
    METRICS_PORT: '',
    MONGODB_URI: '',
    SETTLEMENT_POLL_MS: '50',
  };
  envOf = (replica) => {
    if (replica === 'gateway-a' || replica === 'gateway-b') {
      return { ...environmentOf(production, 'gateway'), ...onThisMachine, PORT: ports[replica], HOST: '127.0.0.1' };
    }
    const dataDir = join(dataRoot, replica);
    mkdirSync(dataDir, { recursive: true });
    return {
      ...environmentOf(production, replica),
      ...onThisMachine,
      DATA_DIR: dataDir,
      GRPC_ADDRESS: addresses[ADDRESS_VARS[replica]],
    };
  };
  for (const service of SERVICES) expect(environmentOf(production, service).GRID_MODE).toBe('production');
  expect(environmentOf(production, 'gateway').KAFKA_BROKERS).toBeTruthy();
  await Promise.all(SERVICES.map(start));
  await Promise.all(GATEWAYS.map(start));
  for (const gateway of GATEWAYS) {
    await until(
      `${gateway} ready`,
      async () => (await fetch(`${running.get(gateway)!.rootUrl}/readyz`)).status,
      (s) => s === 200,
      120_000,
    );
  }
}, 10 * 60_000);

afterAll(async () => {
  await Promise.all([...running.keys()].map((r) => stop(r, 'SIGKILL')));
  await cluster?.stop();
  if (dataRoot) rmSync(dataRoot, { recursive: true, force: true });
});

/**
 * A VIEW token made through gateway A, used once through gateway B (which then answers from its credential cache, 30
 * s).
 */
async function tokenCachedByB(name: string): Promise<{ id: string; reader: string }> {
  const created = await fetch(`${url('gateway-a')}/tokens`, {
    method: 'POST',
    headers: { authorization: operator, 'content-type': 'application/json' },
    body: JSON.stringify({ name, permissions: ['VIEW'] }),
  });
  expect(created.status).toBe(201);
  const token = await created.json() as { id: string; clientId: string; clientSecret: string };
  const reader = basic(token.clientId, token.clientSecret);
  expect((await fetch(`${url('gateway-b')}/customers`, { headers: { authorization: reader } })).status).toBe(200);
  expect((await fetch(`${url('gateway-b')}/customers`, { headers: { authorization: reader } })).status).toBe(200);
  return { id: token.id, reader };
}

async function deleteThroughA(id: string): Promise<number> {
  expect(
    (await fetch(`${url('gateway-a')}/tokens/${id}`, { method: 'DELETE', headers: { authorization: operator } }))
      .status,
  ).toBe(204);
  return Date.now();
}

const statusOnB = async (reader: string) =>
  (await fetch(`${url('gateway-b')}/customers`, { headers: { authorization: reader } })).status;

test('a token deleted through one gateway replica is refused by the other within 5 s', async () => {
  // A replica joins its group in the background after it started: the first deletion it hears of
  // tells that it listens (within the 30 s cache it would be refused anyway).
  const first = await tokenCachedByB('replicas-warm-up');
  await deleteThroughA(first.id);
  await until('gateway B hears of deletions', () => statusOnB(first.reader), (s) => s === 401, 30_000);

  const token = await tokenCachedByB('replicas');
  const deletedAt = await deleteThroughA(token.id);
  await until('gateway B refuses the deleted token', () => statusOnB(token.reader), (s) => s === 401, 5_000);
  expect(Date.now() - deletedAt).toBeLessThan(5_000);
});

/** The consumer groups docs/operating.md lists, `<replica>` standing for one replica's name. */
function documentedGroups(): RegExp[] {
  const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'operating.md'), 'utf8');
  const table = doc.slice(doc.indexOf('| Topic | Written by | Read by (consumer group) |'));
  const rows = table.split('\n').slice(2).filter((l) => l.startsWith('|'));
  const names = rows.flatMap((row) => [...row.split('|')[3].matchAll(/`([^`]+)`/g)].map((m) => m[1]));
  const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return names.map((n) => new RegExp(`^${n.split('<replica>').map(escaped).join('[A-Za-z0-9._-]+')}$`));
}

test('after 5 restarts of every component the broker holds only the documented stable consumer groups', async () => {
  const documented = documentedGroups();
  expect(documented.length).toBeGreaterThanOrEqual(5);
  const before = await cluster.groups();
  for (let round = 1; round <= 5; round++) {
    // Killed (no goodbye, as a crash or an OOM kill) in odd rounds, stopped (SIGTERM, a rollout's restart) in even
    // ones.
    const signal = round % 2 ? 'SIGKILL' : 'SIGTERM';
    await Promise.all([...SERVICES, ...GATEWAYS].map((r) => stop(r, signal)));
    await Promise.all(SERVICES.map(start));
    await Promise.all(GATEWAYS.map(start));
  }
  for (const gateway of GATEWAYS) {
    await until(
      `${gateway} ready`,
      async () => (await fetch(`${running.get(gateway)!.rootUrl}/readyz`)).status,
      (s) => s === 200,
      120_000,
    );
  }
  // Let every subscription join (a join happens in the background after the start).
  await new Promise((r) => setTimeout(r, 8_000));
  const groups = await cluster.groups();
  expect(groups.filter((g) => !documented.some((d) => d.test(g)))).toEqual([]);
  // One group per replica, whatever the number of restarts: two gateways, one notifications.
  expect(groups.filter((g) => g.startsWith('gateway-credentials.')).sort()).toEqual(
    before.filter((g) => g.startsWith('gateway-credentials.')).sort(),
  );
  expect(groups.filter((g) => g.startsWith('gateway-credentials.'))).toHaveLength(2);
  expect(groups.filter((g) => g.startsWith('notifications-endpoint-cache.'))).toHaveLength(1);
});
