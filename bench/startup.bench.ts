import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSystem, stopSystem, type TimedStart } from './system-process';

/**
 * `npm run bench -- startup`: `node dist/main.js all` on a new empty data directory, STARTUP_RUNS
 * times (default 5), each timed from spawn to `/readyz` 200 (target: under 2 s). On a busy
 * machine the wall time is mostly the wait for a core; the CPU time to ready, per thread, and the
 * load average of each run say how far from a quiet machine it was.
 */
export interface StartupResult {
  runs: number;
  /** The run of median wall time, whole (timeline included). */
  median: TimedStart;
  readyMs: number[];
  readyCpuMs: number[];
}

export async function runStartupBenchmark(runs = Number(process.env.STARTUP_RUNS ?? 5)): Promise<StartupResult> {
  const root = join(__dirname, '..');
  if (!existsSync(join(root, 'main.js'))) throw new Error('run `npm run build` first');
  const starts: TimedStart[] = [];
  for (let i = 0; i < runs; i++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'grid-startup-'));
    try {
      const running = await startSystem(root, dataDir);
      await stopSystem(running);
      starts.push(running.start);
      console.log(
        'startup:',
        JSON.stringify({
          readyMs: running.start.readyMs,
          readyCpuMs: running.start.readyCpuMs,
          byThread: running.start.readyCpuByThreadMs,
          loadAverage: running.start.loadAverage,
        }),
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const sorted = [...starts].sort((a, b) => a.readyMs - b.readyMs);
  return {
    runs,
    median: sorted[Math.floor(sorted.length / 2)],
    readyMs: starts.map((s) => s.readyMs),
    readyCpuMs: starts.map((s) => s.readyCpuMs),
  };
}
