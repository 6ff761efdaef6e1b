import type { Logger } from '../../../../lib/log';
import type { OperationRunner } from './operation-runner';

export interface Reconciler {
  start(): void;
  stop(): Promise<void>;
}

const PURGE_EVERY_MS = 60_000;

/**
 * Settles claimed operations once the wallet provider has, so results appear without a re-send;
 * now and then forgets signed retries older than the retention (identical re-sends of those
 * are no longer answered).
 */
export function createReconciler(deps: {
  runner: OperationRunner;
  intervalMs: number;
  logger: Logger;
  purge: () => Promise<number>;
}): Reconciler {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let current: Promise<unknown> = Promise.resolve();
  let lastPurge = 0;

  const pass = async () => {
    await deps.runner.reconcile();
    if (Date.now() - lastPurge >= PURGE_EVERY_MS) {
      lastPurge = Date.now();
      await deps.purge();
    }
  };
  const tick = () => {
    current = pass()
      .catch((err) => deps.logger.warn('wallet operation reconciliation failed; will retry', { err }))
      .finally(() => {
        if (running) schedule();
      });
  };
  const schedule = () => {
    timer = setTimeout(tick, deps.intervalMs);
    timer.unref();
  };

  return {
    start() {
      if (running) return;
      running = true;
      schedule();
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      await current;
    },
  };
}
