import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGatewayApp } from '../../gateway/gateway-app';
import { DEFAULT_SANDBOX } from '../../gateway/sandbox-bootstrap';
import { silentLogger } from '../../lib/log';
import { basicAuthHeader, startTestSystem, type TestSystem } from '../system-harness';

/**
 * Start-up (docs/startup.md): the gateway answers no API request before it can authenticate it
 * (503 with Retry-After, never a 401 for valid credentials), `node dist/main.js all` becomes ready
 * on an empty data directory, and `npm start` builds only what changed.
 */
const ROOT = join(__dirname, '..', '..');
const MAIN = join(ROOT, 'dist', 'main.js');
const AUTH = basicAuthHeader(DEFAULT_SANDBOX.tokenId, DEFAULT_SANDBOX.clientSecret);
const VERSION = '2025-10-13';

let system: TestSystem;
const dataDir = mkdtempSync(join(tmpdir(), 'grid-start-up-'));
beforeAll(async () => {
  system = await startTestSystem();
});
afterAll(async () => {
  await system.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a gateway that cannot authenticate yet', () => {
  let open = false;
  let server: Server;
  let root: string;
  beforeAll(async () => {
    const app = createGatewayApp({
      peers: system.system.peers,
      logger: silentLogger,
      servicesReady: async () => open,
      acceptsRequests: () => open,
    });
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    root = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test(
    'answers valid, wrong and missing credentials alike with '
      + '503 UNAVAILABLE and Retry-After, then serves them once open',
    async () => {
      for (
        const authorization of [AUTH, basicAuthHeader(DEFAULT_SANDBOX.tokenId, 'not-the-secret-0000000'), undefined]
      ) {
        const res = await fetch(`${root}/${VERSION}/customers?limit=1`, {
          headers: authorization ? { authorization } : {},
        });
        expect([res.status, res.headers.get('retry-after'), await res.json()]).toEqual([
          503,
          '1',
          {
            status: 503,
            code: 'UNAVAILABLE',
            message: expect.stringMatching(/starting/),
            details: { retryAfterSeconds: 1 },
          },
        ]);
      }
      // Probes and the public document answer meanwhile.
      expect((await fetch(`${root}/healthz`)).status).toBe(200);
      expect((await fetch(`${root}/readyz`)).status).toBe(503);
      expect((await fetch(`${root}/openapi.json`)).status).toBe(200);

      open = true;
      expect((await fetch(`${root}/${VERSION}/customers?limit=1`, { headers: { authorization: AUTH } })).status).toBe(
        200,
      );
      expect(
        (await fetch(`${root}/${VERSION}/customers?limit=1`, {
          headers: { authorization: basicAuthHeader(DEFAULT_SANDBOX.tokenId, 'not-the-secret-0000000') },
        })).status,
      ).toBe(401);
    },
  );
});

test(
  '`node dist/main.js all` on an empty data directory: every answer to valid credentials '
    + 'is 503 with Retry-After until the first 200, never 401; --startup-report gives its phases',
  async () => {
    const child = spawn(process.execPath, [MAIN, 'all', '--startup-report'], {
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        MONGODB_URI: '',
        KAFKA_BROKERS: '',
        DATA_DIR: join(dataDir, 'empty'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const report = new Promise<Record<string, unknown>>((resolve) => {
      createInterface({ input: child.stderr! }).on('line', (line) => {
        if (line.startsWith('{"startupReport"')) {
          resolve((JSON.parse(line) as { startupReport: Record<string, unknown> }).startupReport);
        }
      });
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('the gateway did not listen')), 120_000);
        createInterface({ input: child.stdout! }).on('line', (line) => {
          const entry = JSON.parse(line) as Record<string, unknown>;
          if (entry.msg === 'gateway listening') {
            clearTimeout(timer);
            resolve(String(entry.url));
          }
        });
      });
      const answers: Array<[number, string | null]> = [];
      // A readiness wait, not a timed assertion: ask until served (docs/startup.md gives the figures).
      for (let served = false; !served;) {
        const res = await fetch(`${url}/${VERSION}/customers?limit=1`, { headers: { authorization: AUTH } });
        await res.arrayBuffer();
        answers.push([res.status, res.headers.get('retry-after')]);
        served = res.status !== 503;
      }
      expect(answers.at(-1)).toEqual([200, null]);
      expect(answers.slice(0, -1).every(([status, retryAfter]) => status === 503 && retryAfter === '1')).toBe(true);

      // The start-up timeline of both threads, in ms since the process started, in the order things happen.
      const { component, msSinceProcessStart: at, cpuMs } = (await report) as {
        component: string;
        msSinceProcessStart: Record<string, number>;
        cpuMs: number;
      };
      expect(component).toBe('all');
      expect(cpuMs).toBeGreaterThan(0);
      for (const service of ['auth', 'accounts', 'quotes-transactions', 'notifications']) {
        expect(at[`${service}: store open`]).toBeLessThanOrEqual(at[`${service}: gRPC listening`]);
        expect(at[`${service}: gRPC listening`]).toBeLessThanOrEqual(at['services: all listening']);
      }
      expect(at['main: services thread spawned']).toBeLessThanOrEqual(at['services: thread running']);
      expect(at['services: all listening']).toBeLessThanOrEqual(at['main: services thread listening']);
      expect(at['gateway: listening']).toBeLessThanOrEqual(at['gateway: sandbox credentials ensured (open)']);
    } finally {
      child.kill('SIGKILL');
    }
  },
  180_000,
);

/** Runs scripts/ensure-built.cjs (what `npm start` runs first); answers what it said. */
function ensureBuilt(): string {
  const run = spawnSync(process.execPath, [join(ROOT, 'scripts', 'ensure-built.cjs')], { cwd: ROOT, encoding: 'utf8' });
  expect([run.status, run.stderr]).toEqual([0, expect.any(String)]);
  return run.stderr;
}

test('an unchanged tree is not rebuilt; a changed source is compiled again, and it says so', () => {
  ensureBuilt(); // `npm test` has built; whatever was left is built now
  expect(ensureBuilt()).toMatch(/^build is current \(checked in \d+ ms\)\n$/);
  const now = new Date();
  utimesSync(join(ROOT, 'system.ts'), now, now);
  const rebuilt = ensureBuilt();
  expect(rebuilt).toMatch(/^building: system\.ts changed since the last compile: compiling \(incremental\)$/m);
  expect(rebuilt).not.toMatch(/regenerating/);
  expect(ensureBuilt()).toMatch(/^build is current/);
}, 300_000);
