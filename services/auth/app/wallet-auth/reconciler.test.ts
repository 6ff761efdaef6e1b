import { silentLogger } from '../../../../lib/log';
import type { OperationRunner } from './operation-runner';
import { createReconciler } from './reconciler';

test('reconciles on every tick, purges at most once a minute, survives failures, stops cleanly', async () => {
  let reconciled = 0;
  let purged = 0;
  const runner = { reconcile: async () => { reconciled += 1; if (reconciled === 2) throw new Error('provider down'); return 0; } } as unknown as OperationRunner;
  const reconciler = createReconciler({ runner, intervalMs: 10, logger: silentLogger, purge: async () => ++purged });
  reconciler.start();
  await new Promise((r) => setTimeout(r, 120));
  await reconciler.stop();
  const after = reconciled;
  await new Promise((r) => setTimeout(r, 40));
  expect(after).toBeGreaterThanOrEqual(3);
  expect(reconciled).toBe(after);
  expect(purged).toBe(1);
});
