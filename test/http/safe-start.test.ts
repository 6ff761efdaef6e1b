import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killSystemProcess, startSystemProcess } from '../reliability/system-process';

/** How `npm start` behaves when it cannot, or should not, take what it asks for. */
const MAIN = join(__dirname, '..', '..', 'dist', 'main.js');
const dataDir = mkdtempSync(join(tmpdir(), 'grid-safe-start-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Runs main.js to its exit; answers the exit code and what it wrote to stderr. */
function runToExit(env: NodeJS.ProcessEnv, component = 'all'): Promise<{ code: number | null; stderr: string[] }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, component], {
      env: { ...process.env, MONGODB_URI: '', KAFKA_BROKERS: '', LOG_LEVEL: 'error', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr: stderr.split('\n').filter(Boolean) });
    });
  });
}

test('a port that is already taken stops the process with one clear line and a non-zero exit', async () => {
  const blocker = createServer();
  const port = await new Promise<number>((resolve) =>
    blocker.listen(0, '127.0.0.1', () => resolve((blocker.address() as { port: number }).port))
  );
  try {
    const { code, stderr } = await runToExit({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: join(dataDir, 'port'),
    });
    expect(code).toBe(1);
    expect(stderr).toEqual([
      `cannot start: 127.0.0.1:${port} is already in use by another `
      + 'process: stop it, or set PORT (and HOST) to a free address',
    ]);
    // Checked before anything touched the data directory: no store, no keys, no stale lock files.
    expect(existsSync(join(dataDir, 'port'))).toBe(false);
  } finally {
    blocker.close();
  }
});

test(
  'with the published sandbox credentials and no HOST, the gateway listens on loopback '
    + 'only and says so; a second process on the same data directory refuses to start',
  async () => {
    const system = await startSystemProcess({ HOST: '', DATA_DIR: join(dataDir, 'shared') });
    try {
      expect(system.rootUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(system.logs.some((l) => l.level === 'warn' && String(l.msg).includes('listens on 127.0.0.1 only'))).toBe(
        true,
      );
      expect(system.logs.find((l) => l.msg === 'started')).toEqual(
        expect.objectContaining({ store: 'embedded, durable', dataDir: join(dataDir, 'shared') }),
      );

      const second = await runToExit({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: join(dataDir, 'shared') });
      expect(second.code).toBe(1);
      expect(second.stderr).toHaveLength(1);
      expect(second.stderr[0]).toMatch(
        /^cannot start: .*is in use by another process: the embedded store serves one replica/,
      );
    } finally {
      await killSystemProcess(system, 'SIGTERM');
    }
  },
);

/**
 * An empty directory on a read-only file system: a read-only tmpfs when we may mount one, else a directory we may not
 * write.
 */
function readOnlyDirectory(name: string): { path: string; expected: RegExp; release(): void } | undefined {
  const path = join(dataDir, name);
  mkdirSync(path);
  if (process.getuid?.() === 0) {
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', path], { stdio: 'ignore' });
      return {
        path,
        expected: /is on a read-only file system \(EROFS\)/,
        release: () => execFileSync('umount', [path], { stdio: 'ignore' }),
      };
    } catch {
      return undefined; // root without mount rights: permissions would not stop root either
    }
  }
  execFileSync('chmod', ['0555', path]);
  return {
    path,
    expected: /is not writable by this user \(EACCES/,
    release: () => execFileSync('chmod', ['0755', path]),
  };
}

test('an empty read-only data directory is reported as such, with one line, before anything else', async () => {
  const dir = readOnlyDirectory('read-only');
  if (!dir) {
    console.warn('skipped: cannot make a read-only directory here (root without mount rights)');
    return;
  }
  try {
    const { code, stderr } = await runToExit({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir.path });
    expect(code).toBe(1);
    expect(stderr).toHaveLength(1);
    expect(stderr[0]).toMatch(new RegExp(`^cannot start: the data directory ${dir.path} `));
    expect(stderr[0]).toMatch(dir.expected);
    expect(stderr[0]).not.toMatch(/ENOENT/);
  } finally {
    dir.release();
  }
});

describe('HOST beyond loopback with the published sandbox secret', () => {
  const distributed = {
    INTERNAL_TOKEN: 'internal-token-of-this-test-0123456789',
    AUTH_ADDRESS: '127.0.0.1:1',
    ACCOUNTS_ADDRESS: '127.0.0.1:1',
    QUOTES_TRANSACTIONS_ADDRESS: '127.0.0.1:1',
    NOTIFICATIONS_ADDRESS: '127.0.0.1:1',
  };

  test('outside the sandbox (a gateway alone, as the manifests run it) the start is refused with exit 2', async () => {
    const { code, stderr } = await runToExit({
      ...distributed,
      PORT: '0',
      HOST: '0.0.0.0',
      SANDBOX_API_CLIENT_SECRET: '',
      DATA_DIR: join(dataDir, 'exposed-gateway'),
    }, 'gateway');
    expect(code).toBe(2);
    expect(stderr).toEqual([
      expect.stringMatching(
        new RegExp(
          '^configuration error: SANDBOX_API_CLIENT_SECRET is the published sandbox secret '
            + 'while HOST=0\\.0\\.0\\.0 serves the gateway beyond this machine',
        ),
      ),
    ]);
  });

  test('outside the sandbox (on MongoDB) the start is refused before connecting', async () => {
    const { code, stderr } = await runToExit({
      PORT: '0',
      HOST: '0.0.0.0',
      MONGODB_URI: 'mongodb://127.0.0.1:1',
      DATA_DIR: join(dataDir, 'exposed-mongo'),
    });
    expect(code).toBe(2);
    expect(stderr[0]).toMatch(/is the published sandbox secret while HOST=0\.0\.0\.0/);
  });

  test('with a secret of its own the gateway starts on 0.0.0.0 without a warning', async () => {
    const system = await startSystemProcess({
      HOST: '0.0.0.0',
      SANDBOX_API_CLIENT_SECRET: 'a-secret-of-our-own-0123',
      DATA_DIR: join(dataDir, 'own-secret'),
    });
    try {
      expect(system.logs.some((l) => l.level === 'warn' && String(l.msg).includes('published sandbox secret'))).toBe(
        false,
      );
    } finally {
      await killSystemProcess(system, 'SIGTERM');
    }
  });

  test('inside the sandbox (all, embedded store) it starts, warning loudly on stderr and in the log', async () => {
    const system = await startSystemProcess({ HOST: '0.0.0.0', DATA_DIR: join(dataDir, 'exposed-sandbox') });
    try {
      expect(system.logs).toContainEqual(
        expect.objectContaining({
          level: 'warn',
          msg: expect.stringMatching(/^the published sandbox secret is served on HOST=0\.0\.0\.0/),
        }),
      );
      expect(system.stderr.join('\n')).toMatch(/^WARNING: the published sandbox secret is served on HOST=0\.0\.0\.0/m);
    } finally {
      await killSystemProcess(system, 'SIGTERM');
    }
  });
});
