import { propagation, ROOT_CONTEXT } from '@opentelemetry/api';
import { inSpan } from '../../../../lib/telemetry';
import type { Logger } from '../../../../lib/log';
import { underLease, type Lease } from '../../../../lib/runtime/lease';
import type { PlannedChange, SettlementTiming } from '../domain/settlement-plan';
import type { Payment } from '../domain/payment';
import type { Ledger } from '../../ledger/app/ledger';
import type { PaymentStore } from './payment-store';
import { createSandboxSettlementRail, type SettlementRail } from './settlement-rail';
import { StepNeedsReconciliation } from '../../ledger/app/ledger';
import { PaymentMovedOn, type StepRunner } from './step-runner';

export interface SettlementWorkerOptions {
  payments: PaymentStore;
  runner: StepRunner;
  ledger: Ledger;
  clock: () => Date;
  timing: SettlementTiming;
  /** What moves a payment along its rail; the sandbox's timer simulator unless given. */
  rail?: SettlementRail;
  logger: Logger;
  /** Pause between two passes; none after a pass that found a full batch (a backlog is drained at once). */
  intervalMs: number;
  /** A ledger step still pending after this long is taken over (its process presumably died). */
  recoverAfterMs: number;
  batchSize?: number;
  /** Turns a planned change into the one to run (a payment to a receiver on this server is received first). */
  beforeSettling?: (p: Payment, plan: PlannedChange, now: Date) => Promise<PlannedChange>;
  /**
   * With several replicas: only the holder runs passes, renewing while it works; a dead holder's lease lapses and
   * another replica takes over.
   */
  lease?: Lease;
}

/**
 * Moves payments along their rails over time, outside any request: expires quotes, advances
 * settlement stages, completes refunds, and finishes ledger steps left half-done by a crash.
 * Several workers may run at once: every change is conditional, so a lost race is skipped; with
 * a lease, only one replica's loop makes passes at a time and stops a pass once it lost the lease.
 */
export function createSettlementWorker(options: SettlementWorkerOptions) {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let current: Promise<number> = Promise.resolve(0);
  const batchSize = options.batchSize ?? 100;
  let backlog = false;
  const rail = options.rail ?? createSandboxSettlementRail(options.timing);

  /**
   * Each step is a span in the trace that started the payment, so its events (and their webhooks) join that trace too.
   */
  async function advance(p: Payment, now: Date): Promise<boolean> {
    const parent = p.traceparent ? propagation.extract(ROOT_CONTEXT, { traceparent: p.traceparent }) : ROOT_CONTEXT;
    const attributes = { 'payment.id': p.id, 'payment.status': p.status };
    if (p.pendingStep) {
      await inSpan('settlement finish step', { parent, attributes }, () => options.runner.finish(p));
      return true;
    }
    const planned = await rail.next(p, now);
    if (!planned) return false;
    await inSpan('settlement step', { parent, attributes }, async () => {
      const plan = options.beforeSettling ? await options.beforeSettling(p, planned, now) : planned;
      return options.runner.run(p, plan);
    });
    return true;
  }

  /** One pass over what is due; resolves with the number of payments changed. */
  async function tick(stillMine: () => boolean = () => true): Promise<number> {
    const now = options.clock();
    const staleBefore = new Date(now.getTime() - options.recoverAfterMs).toISOString();
    const due = await options.payments.due(now.toISOString(), staleBefore, batchSize);
    backlog = due.length === batchSize;
    let changed = 0;
    for (const p of due) {
      if (!stillMine()) break;
      try {
        if (await advance(p, now)) changed++;
      } catch (err) {
        if (err instanceof StepNeedsReconciliation) {
          options.logger.error('ledger step needs reconciliation; left pending', {
            transactionId: p.id,
            step: err.stepKey,
          });
        } else if (!(err instanceof PaymentMovedOn)) {
          options.logger.error('settlement step failed; will retry', { transactionId: p.id, err });
        }
      }
    }
    if (!stillMine()) return changed;
    await options.ledger.recoverJournal(options.recoverAfterMs);
    await options.ledger.archivePostings();
    return changed;
  }

  const { lease } = options;
  /** With a lease, a pass runs only in the replica holding it; the others wait the interval and ask again. */
  const pass = async (): Promise<number> => {
    if (!lease) return tick();
    const result = await underLease(lease, () => tick(() => lease.isHeld()));
    if (result.ran) return result.value;
    backlog = false;
    return 0;
  };

  const loop = async () => {
    current = pass().catch((err) => {
      options.logger.error('settlement pass failed; will retry', { err });
      backlog = false; // a failing pass waits the interval before the next, backlog or not
      return 0;
    });
    await current;
    if (running) timer = setTimeout(() => void loop(), backlog ? 0 : options.intervalMs).unref();
  };

  return {
    tick,
    start() {
      if (running) return;
      running = true;
      timer = setTimeout(() => void loop(), options.intervalMs).unref();
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      await current;
      await lease?.release().catch((err: unknown) =>
        options.logger.warn('settlement worker could not give its lease back; it lapses', { err })
      );
    },
  };
}
