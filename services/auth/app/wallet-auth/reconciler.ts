import type { Logger } from '../../../../lib/log';
import type { Lease } from '../../../../lib/runtime/lease';
import { createPeriodicTask } from '../../../../lib/runtime/periodic-task';
import type { OperationRunner } from './operation-runner';

export interface Reconciler {
  start(): void;
  stop(): Promise<void>;
}

const PURGE_EVERY_MS = 60_000;

/**
 * Settles claimed operations once the wallet provider has, so results appear without a re-send;
 * once a minute forgets challenges that expired unused and operations settled longer ago than the
 * retention (identical re-sends of those are no longer answered).
 */
export function createReconciler(deps: {
  runner: OperationRunner;
  intervalMs: number;
  logger: Logger;
  purge: () => Promise<number>;
  /** With several replicas: only the holder reconciles (the runner's lock is per process). */
  lease?: Lease;
}): Reconciler {
  let lastPurge = 0;
  const pass = async () => {
    await deps.runner.reconcile();
    if (Date.now() - lastPurge >= PURGE_EVERY_MS) {
      lastPurge = Date.now();
      await deps.purge();
    }
  };
  const task = createPeriodicTask({
    name: 'wallet operation reconciliation',
    intervalMs: deps.intervalMs,
    run: pass,
    logger: deps.logger,
    ...(deps.lease ? { lease: deps.lease } : {}),
  });
  return { start: () => task.start(), stop: () => task.stop() };
}
