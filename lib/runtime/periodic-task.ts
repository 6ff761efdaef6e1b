import type { Logger } from '../log';
import { underLease, type Lease } from './lease';

export interface PeriodicTask {
  /** Runs `run` every `intervalMs` after the previous run finished (runs never overlap). */
  start(): void;
  /** Stops scheduling and waits for a run in progress. */
  stop(): Promise<void>;
  /** Runs now, after any run in progress; rejects with the run's error. */
  runNow(): Promise<void>;
}

/** The background loop every worker shares: no overlap, failures logged and retried next tick. */
export function createPeriodicTask(options: {
  name: string;
  intervalMs: number;
  run: () => Promise<unknown>;
  logger: Logger;
  /** With several replicas: only the holder of this lease runs (see lease.ts); it is given back on stop. */
  lease?: Lease;
}): PeriodicTask {
  const { lease } = options;
  const work = lease ? () => underLease(lease, options.run) : options.run;
  let timer: NodeJS.Timeout | undefined;
  let active = false;
  let current: Promise<unknown> = Promise.resolve();

  const runNow = (): Promise<void> => {
    const run = current.then(() => work()).then(() => undefined);
    current = run.catch(() => undefined);
    return run;
  };
  const schedule = () => {
    timer = setTimeout(() => {
      runNow()
        .catch((err) => options.logger.warn(`${options.name} failed; will retry`, { err }))
        .finally(() => {
          if (active) schedule();
        });
    }, options.intervalMs);
    timer.unref();
  };

  return {
    start() {
      if (active) return;
      active = true;
      schedule();
    },
    async stop() {
      active = false;
      clearTimeout(timer);
      await current;
      await lease?.release().catch((err: unknown) =>
        options.logger.warn(`${options.name} could not give its lease back; it lapses`, { err })
      );
    },
    runNow,
  };
}
