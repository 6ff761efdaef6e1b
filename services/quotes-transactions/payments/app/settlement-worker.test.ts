import { silentLogger } from '../../../../lib/log';
import type { Payment } from '../domain/payment';
import type { Ledger } from '../../ledger/app/ledger';
import type { PaymentStore } from './payment-store';
import { createSettlementWorker } from './settlement-worker';
import type { StepRunner } from './step-runner';

/** Payments due now, each advanced once by the runner (a stand-in that records what it ran). */
function backlog(count: number) {
  const due = Array.from(
    { length: count },
    (_, i) =>
      ({
        id: `Transaction:${i}`,
        status: 'PROCESSING',
        type: 'OUTGOING',
        pendingStep: { key: `k${i}` },
      }) as unknown as Payment,
  );
  const finished = new Set<string>();
  const payments = {
    due: async (_now: string, _stale: string, limit: number) => due.filter((p) => !finished.has(p.id)).slice(0, limit),
  } as unknown as PaymentStore;
  const runner = {
    finish: async (p: Payment) => {
      finished.add(p.id);
      return p;
    },
    run: async (p: Payment) => p,
  } as unknown as StepRunner;
  const ledger = { recoverJournal: async () => 0, archivePostings: async () => 0 } as unknown as Ledger;
  return { payments, runner, ledger, finished };
}

test('a backlog larger than one batch is worked through pass after pass, no interval waited between them', async () => {
  const { payments, runner, ledger, finished } = backlog(25);
  const worker = createSettlementWorker({
    payments,
    runner,
    ledger,
    clock: () => new Date(),
    timing: { stepMs: 1000 },
    logger: silentLogger,
    intervalMs: 1_000,
    recoverAfterMs: 10_000,
    batchSize: 10,
  });
  worker.start();
  // Three passes: one interval before the first, none between them (one per pass would be 3 s).
  const deadline = Date.now() + 1_800;
  while (finished.size < 25 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  await worker.stop();
  expect(finished.size).toBe(25);
});
