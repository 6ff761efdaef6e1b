import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../lib/log';
import type { ServiceName } from '../../lib/runtime/service-module';
import { DEFAULT_SANDBOX } from '../../gateway/sandbox-bootstrap';
import { startSystem, type RunningSystem } from '../../system';
import { basicAuthHeader } from '../system-harness';
import { killSystemProcess, startSystemProcess, type SystemProcess } from '../reliability/system-process';
import { freePort } from '../fixtures/free-port';

/** What an operator sees when a deployment is set up wrong: a refusal that says why, never a start that loses data. */
const MAIN = join(__dirname, '..', '..', 'dist', 'main.js');
jest.setTimeout(120_000);

const dirs: string[] = [];
const processes: SystemProcess[] = [];
const systems: RunningSystem[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'grid-ops-'));
  dirs.push(d);
  return d;
};
afterAll(async () => {
  for (const p of processes) await killSystemProcess(p, 'SIGKILL');
  for (const s of systems.reverse()) await s.stop().catch(() => undefined);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function runMain(args: string[], env: NodeJS.ProcessEnv) {
  return spawnSync(process.execPath, [MAIN, ...args], {
    env: { ...process.env, MONGODB_URI: '', KAFKA_BROKERS: '', INTERNAL_TOKEN: 'x'.repeat(32), ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('a service run on its own', () => {
  it.each(['auth', 'accounts', 'quotes-transactions', 'notifications'])(
    '%s refuses to start without KAFKA_BROKERS',
    (service) => {
      const run = runMain([service], {
        DATA_DIR: tempDir(),
        AUTH_ADDRESS: '127.0.0.1:1',
        ACCOUNTS_ADDRESS: '127.0.0.1:1',
        QUOTES_TRANSACTIONS_ADDRESS: '127.0.0.1:1',
        NOTIFICATIONS_ADDRESS: '127.0.0.1:1',
      });
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/KAFKA_BROKERS is required when .+ runs on its own/);
    },
  );
});

describe('the embedded store is single-replica', () => {
  it('refuses a second process on the same DATA_DIR, naming the one that holds it', async () => {
    const dataDir = tempDir();
    const first = await startSystemProcess({ DATA_DIR: dataDir });
    processes.push(first);
    const lock = JSON.parse(readFileSync(join(dataDir, 'accounts.lock'), 'utf8'));
    expect(lock).toMatchObject({ pid: first.child.pid, host: hostname() });

    const second = runMain(['all'], { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' });
    expect(second.status).toBe(1);
    expect(second.stderr).toContain(`is in use by another process`);
    expect(second.stderr).toContain(
      `the embedded store serves one replica (auth is held by pid ${first.child.pid} on ${hostname()};`,
    );
    // The first one is untouched and still serves.
    expect((await fetch(`${first.rootUrl}/readyz`)).status).toBe(200);

    // A clean stop releases the lock; the next process starts.
    expect(await killSystemProcess(first, 'SIGTERM')).toBe(0);
    expect(existsSync(join(dataDir, 'accounts.lock'))).toBe(false);
  });

  it('reclaims the lock of a process that died (SIGKILL leaves the file behind)', async () => {
    const dataDir = tempDir();
    const killed = await startSystemProcess({ DATA_DIR: dataDir });
    await killSystemProcess(killed, 'SIGKILL');
    expect(existsSync(join(dataDir, 'auth.lock'))).toBe(true);
    const next = await startSystemProcess({ DATA_DIR: dataDir });
    processes.push(next);
    expect(JSON.parse(readFileSync(join(dataDir, 'auth.lock'), 'utf8')).pid).toBe(next.child.pid);
    expect((await fetch(`${next.rootUrl}/readyz`)).status).toBe(200);
  });

  it('reclaims a lock nobody has touched for 30 s, even one from another host', async () => {
    const dataDir = tempDir();
    const lockFile = join(dataDir, 'notifications.lock');
    writeFileSync(lockFile, JSON.stringify({ pid: 1, host: 'another-host', since: '2026-01-01T00:00:00Z' }));
    const old = new Date(Date.now() - 60_000);
    utimesSync(lockFile, old, old);
    const next = await startSystemProcess({ DATA_DIR: dataDir });
    processes.push(next);
    expect(JSON.parse(readFileSync(lockFile, 'utf8')).pid).toBe(next.child.pid);
  });

  it('refuses a fresh lock of another host', () => {
    const dataDir = tempDir();
    writeFileSync(
      join(dataDir, 'auth.lock'),
      JSON.stringify({ pid: 4242, host: 'replica-2', since: new Date().toISOString() }),
    );
    const run = runMain(['all'], { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('pid 4242 on replica-2');
  });
});

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('auth restarted without its data', () => {
  it('the gateway re-creates the sandbox credentials; /readyz is 503 until requests authenticate again', async () => {
    const env = { ...process.env, MONGODB_URI: '', KAFKA_BROKERS: '', DATA_DIR: ':memory:' };
    const token = 'internal-token-for-the-restart-test';
    const addresses: Partial<Record<ServiceName, string>> = {};
    const start = (name: ServiceName, address: string) =>
      startSystem({
        components: [name],
        env,
        logger: silentLogger,
        internalToken: token,
        bindAddress: () => address,
        remoteAddresses: addresses,
      });
    const authAddress = `127.0.0.1:${await freePort()}`;
    let auth = await start('auth', authAddress);
    addresses.auth = authAddress;
    for (const name of ['accounts', 'quotes-transactions', 'notifications'] as const) {
      const component = await start(name, '127.0.0.1:0');
      addresses[name] = component.services[0].address;
      systems.push(component);
    }
    const gateway = await startSystem({
      components: ['gateway'],
      env,
      logger: silentLogger,
      internalToken: token,
      bindAddress: () => '127.0.0.1:0',
      remoteAddresses: addresses,
      gateway: { host: '127.0.0.1', port: 0, sandbox: DEFAULT_SANDBOX },
    });
    systems.push(gateway);
    const base = `http://127.0.0.1:${gateway.gateway!.port}`;
    const authorization = basicAuthHeader(DEFAULT_SANDBOX.tokenId, DEFAULT_SANDBOX.clientSecret);
    const listCustomers = () =>
      fetch(`${base}/2025-10-13/customers`, { headers: { authorization } }).then((r) => r.status);
    expect(await listCustomers()).toBe(200);

    await auth.stop();
    expect((await fetch(`${base}/readyz`)).status).toBe(503);

    auth = await start('auth', authAddress); // an empty store: the token is gone
    systems.push(auth);
    // Asked of auth itself (the gateway caches credentials it saw succeed).
    const authenticates = () =>
      gateway.peers.apiTokens.authenticateApiToken({
        tokenId: DEFAULT_SANDBOX.tokenId,
        clientSecret: DEFAULT_SANDBOX.clientSecret,
      })
        .then(() => true, () => false);
    await until('auth knows the sandbox token again', authenticates);
    expect(await listCustomers()).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
  });
});
