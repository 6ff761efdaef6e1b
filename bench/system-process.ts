import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';

/**
 * `node dist/main.js all --startup-report` on a data directory, timed from spawn to the first
 * `/readyz` 200 (polled every 5 ms), with what a busy machine does not distort as much as wall time:
 * the process's CPU time at that moment, per thread, and the start-up timeline the process reports.
 */
export interface TimedStart {
  /** Spawn to the first `/readyz` 200. */
  readyMs: number;
  /** The process's user + system CPU time when `/readyz` first answered 200. */
  readyCpuMs: number;
  /** The same by thread (cpuByThread): `main` (gateway), each service's thread, `other` (V8 and libuv helpers). */
  readyCpuByThreadMs: Record<string, number>;
  /** The machine's 1-minute load average when the start began (2 cores: above 2, the start queued for a core). */
  loadAverage: number;
  /** Phases in ms since the process started (main.ts `--startup-report`; docs/startup.md). */
  timeline: Record<string, number>;
}

export interface RunningSystem {
  child: ChildProcess;
  base: string;
  start: TimedStart;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

const TICKS_PER_SECOND = 100;

/**
 * CPU ms of each thread of a process, from /proc (Linux), by name: `main` (the gateway), each
 * service's thread by the name it gives itself (`grid-auth`, `grid-accounts`, `grid-quotes-tx`,
 * `grid-notify`), `other` (V8 and libuv helpers).
 */
export function cpuByThread(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
      const comm = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      const key = tid === String(pid) ? 'main' : comm.startsWith('grid-') ? comm : 'other';
      out[key] = (out[key] ?? 0) + ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

export async function startSystem(root: string, dataDir: string, env: NodeJS.ProcessEnv = {}): Promise<RunningSystem> {
  // The free port may be taken by another process before the system binds it (a busy machine): try another.
  for (let attempt = 1;; attempt++) {
    try {
      return await startOnce(root, dataDir, env);
    } catch (err) {
      if (attempt >= 3 || !/already in use/.test(String(err))) throw err;
    }
  }
}

async function startOnce(root: string, dataDir: string, env: NodeJS.ProcessEnv): Promise<RunningSystem> {
  const port = await freePort();
  const loadAverage = Number(loadavg()[0].toFixed(2));
  const started = performance.now();
  const child = spawn(process.execPath, [join(root, 'main.js'), 'all', '--startup-report'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      DATA_DIR: dataDir,
      MONGODB_URI: '',
      KAFKA_BROKERS: '',
      GATEWAY_RATE_LIMIT_REQUESTS: '100000000',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let timeline: Record<string, number> = {};
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    const line = /^\{"startupReport".*$/m.exec(stderr)?.[0];
    if (line) {
      timeline = (JSON.parse(line) as { startupReport: { msSinceProcessStart: Record<string, number> } }).startupReport
        .msSinceProcessStart;
    }
  });
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.status === 200, () => false);
    if (ok) {
      const readyMs = Math.round(performance.now() - started);
      const byThread = cpuByThread(child.pid!);
      const readyCpuMs = Object.values(byThread).reduce((a, b) => a + b, 0);
      // The report is written just before the gateway opens: wait for it only briefly.
      for (let i = 0; i < 100 && !Object.keys(timeline).length; i++) await new Promise((r) => setTimeout(r, 10));
      return {
        child,
        base: `http://127.0.0.1:${port}/2025-10-13`,
        start: { readyMs, readyCpuMs, readyCpuByThreadMs: byThread, loadAverage, timeline },
      };
    }
    if (child.exitCode !== null || performance.now() - started > 180_000) {
      throw new Error(`the system did not become ready: ${stderr.slice(-500)}`);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

export async function stopSystem(running: RunningSystem): Promise<void> {
  if (running.child.exitCode !== null) return;
  const exited = new Promise((resolve) => running.child.once('exit', resolve));
  running.child.kill('SIGTERM');
  await exited;
}
