import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killSystemProcess, startSystemProcess } from '../reliability/system-process';

/** How `npm start` behaves when it cannot, or should not, take what it asks for. */
const MAIN = join(__dirname, '..', '..', 'dist', 'main.js');
const dataDir = mkdtempSync(join(tmpdir(), 'grid-safe-start-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Runs main.js to its exit; answers the exit code and what it wrote to stderr. */
function runToExit(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string[] }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, 'all'], { env: { ...process.env, MONGODB_URI: '', KAFKA_BROKERS: '', LOG_LEVEL: 'error', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk) => { stderr += chunk; });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr: stderr.split('\n').filter(Boolean) });
    });
  });
}

test('a port that is already taken stops the process with one clear line and a non-zero exit', async () => {
  const blocker = createServer();
  const port = await new Promise<number>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve((blocker.address() as { port: number }).port)));
  try {
    const { code, stderr } = await runToExit({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: join(dataDir, 'port') });
    expect(code).toBe(1);
    expect(stderr).toEqual([`cannot start: 127.0.0.1:${port} is already in use by another process: stop it, or set PORT (and HOST) to a free address`]);
  } finally {
    blocker.close();
  }
});

test('with the published sandbox credentials and no HOST, the gateway listens on loopback only and says so; a second process on the same data directory refuses to start', async () => {
  const system = await startSystemProcess({ HOST: '', DATA_DIR: join(dataDir, 'shared') });
  try {
    expect(system.rootUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(system.logs.some((l) => l.level === 'warn' && String(l.msg).includes('listens on 127.0.0.1 only'))).toBe(true);
    expect(system.logs.find((l) => l.msg === 'started')).toEqual(expect.objectContaining({ store: 'embedded, durable', dataDir: join(dataDir, 'shared') }));

    const second = await runToExit({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: join(dataDir, 'shared') });
    expect(second.code).toBe(1);
    expect(second.stderr).toHaveLength(1);
    expect(second.stderr[0]).toMatch(/^cannot start: .*is in use by another process: the embedded store serves one replica/);
  } finally {
    await killSystemProcess(system, 'SIGTERM');
  }
});
