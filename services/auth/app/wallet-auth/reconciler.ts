import type { Logger } from '../../../../lib/log';
import type { OperationRunner } from './operation-runner';

export interface Reconciler {
  start(): void;
  stop(): Promise<void>;
}

/** Settles claimed operations once the wallet provider has, so results appear without a re-send. */
export function createReconciler(deps: { runner: OperationRunner; intervalMs: number; logger: Logger }): Reconciler {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let current: Promise<unknown> = Promise.resolve();

  const tick = () => {
    current = deps.runner
      .reconcile()
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
