import { silentLogger } from '../../../../lib/log';
import { leasesIn } from '../../../../lib/runtime/lease';
import { createEmbeddedDocumentStore } from '../../../../lib/store/embedded-document-store';
import type { OperationRunner } from './operation-runner';
import { createReconciler } from './reconciler';

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setTimeout(r, 5));
}

test('reconciles on every tick, purges at most once a minute, survives failures, stops cleanly', async () => {
  let reconciled = 0;
  let purged = 0;
  const runner = {
    reconcile: async () => {
      reconciled += 1;
      if (reconciled === 2) throw new Error('provider down');
      return 0;
    },
  } as unknown as OperationRunner;
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

test('two replicas sharing the lease: only the holder reconciles; when it stops, the other takes over', async () => {
  const store = createEmbeddedDocumentStore();
  const passes = { a: 0, b: 0 };
  const replica = (name: 'a' | 'b') =>
    createReconciler({
      runner: {
        reconcile: async () => {
          passes[name] += 1;
          return 0;
        },
      } as unknown as OperationRunner,
      intervalMs: 10,
      logger: silentLogger,
      purge: async () => 0,
      lease: leasesIn(store, { holder: name })('wallet operation reconciliation'),
    });
  const a = replica('a');
  const b = replica('b');
  a.start();
  await until(() => passes.a >= 3);
  b.start();
  await until(() => passes.a >= 10);
  expect(passes.b).toBe(0);
  await a.stop();
  await until(() => passes.b >= 3);
  const stoppedAt = passes.a;
  await b.stop();
  expect(passes.a).toBe(stoppedAt);
});
