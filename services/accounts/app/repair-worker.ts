import type { Logger } from '../../../lib/log';
import { underLease, type Lease } from '../../../lib/runtime/lease';
import type { AccountProvisioning } from './account-provisioning';
import type { AccountsStore, PendingProvisioningQuery } from './accounts-store';
import { abandonedBefore, type CustomerEmailChange } from './customer-email-change';
import type { OwnershipVerification } from './ownership-verification';

export interface RepairReport {
  /** Provisioning steps completed and still pending (customers and platforms). */
  completed: number;
  pending: number;
  defaultsCleared: number;
  livenessCompleted: number;
  /** Abandoned customer email changes whose credentials were put back on the customer email. */
  emailChangesReconciled: number;
  /** Records whose repair failed (logged); retried on the next sweep. */
  failed: number;
}

export interface RepairWorker {
  /** One pass over everything left half-done. `graceMs` spares work that requests may still be finishing. */
  sweep(options?: { graceMs?: number }): Promise<RepairReport>;
  /** A sweep now, then one every interval. */
  start(): void;
  /** Stops the timer and waits for a sweep in progress. */
  stop(): Promise<void>;
}

const PAGE = 100;

/** Visits every record matching the query, page by page in id order. */
async function eachPending<T extends { id: string }>(
  find: (query: PendingProvisioningQuery) => Promise<T[]>,
  plannedBefore: string,
  visit: (record: T) => Promise<void>,
): Promise<void> {
  let afterId: string | undefined;
  for (;;) {
    const page = await find({ plannedBefore, limit: PAGE, afterId });
    for (const record of page) await visit(record);
    if (page.length < PAGE) return;
    afterId = page[page.length - 1].id;
  }
}

/**
 * Completes what a crash (or an unreachable auth service) left half-done: customers and platforms
 * still marked as provisioning, new default UMA deposit accounts whose predecessors were not
 * cleared, customer email changes abandoned half-way, and (sandbox) hosted liveness checks that
 * are due. Every repair is idempotent, so a sweep racing a request or another replica does no harm.
 */
export function createRepairWorker(deps: {
  store: AccountsStore;
  provisioning: AccountProvisioning;
  ownership: OwnershipVerification;
  emailChange: CustomerEmailChange;
  clock: () => Date;
  logger: Logger;
  intervalMs: number;
  graceMs: number;
  /**
   * With several replicas: only the holder sweeps, and its start-up sweep keeps the grace (the
   * work marked now may be another live replica's request, not an earlier process's leftover).
   */
  lease?: Lease;
}): RepairWorker {
  const { store, logger } = deps;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = true;

  async function sweep(options: { graceMs?: number } = {}): Promise<RepairReport> {
    const report: RepairReport = {
      completed: 0,
      pending: 0,
      defaultsCleared: 0,
      livenessCompleted: 0,
      emailChangesReconciled: 0,
      failed: 0,
    };
    const now = deps.clock();
    const before = new Date(now.getTime() - (options.graceMs ?? deps.graceMs)).toISOString();
    const attempt = async (what: string, recordId: string, work: () => Promise<void>) => {
      try {
        await work();
      } catch (err) {
        report.failed++;
        logger.warn('repair failed; retried on the next sweep', { what, recordId, err });
      }
    };
    const add = (r: { completed: number; pending: number }) => {
      report.completed += r.completed;
      report.pending += r.pending;
    };
    await eachPending(
      (q) => store.customers.findPendingProvisioning(q),
      before,
      (customer) =>
        attempt(
          'customer provisioning',
          customer.id,
          async () => add(await deps.provisioning.completeCustomer(customer, customer.provisioning ?? [])),
        ),
    );
    await eachPending(
      (q) => store.platforms.findPendingProvisioning(q),
      before,
      (platform) =>
        attempt(
          'platform provisioning',
          platform.id,
          async () => add(await deps.provisioning.completePlatform(platform, platform.provisioning ?? [])),
        ),
    );
    await eachPending(
      (q) => store.externalAccounts.findPendingDefaultClearing(q),
      before,
      (account) =>
        attempt('default UMA deposit clearing', account.id, async () => {
          await store.externalAccounts.clearPreviousDefaults(account, now.toISOString());
          report.defaultsCleared++;
        }),
    );
    await eachPending(
      (q) => store.customers.findEmailChangesStartedBefore(q),
      abandonedBefore(now),
      (customer) =>
        attempt('abandoned email change', customer.id, async () => {
          if (await deps.emailChange.reconcileAbandoned(customer)) report.emailChangesReconciled++;
        }),
    );
    report.livenessCompleted = await deps.ownership.completeDueLiveness(PAGE);
    return report;
  }

  const lease = deps.lease;
  const run = (graceMs?: number) => {
    const pass = async (): Promise<
      unknown
    > => (lease ? underLease(lease, () => sweep({ graceMs })) : sweep({ graceMs }));
    running = running.then(pass).catch((err) => logger.error('repair sweep failed', { err }));
    return running;
  };

  const schedule = () => {
    if (stopped || deps.intervalMs <= 0) return;
    timer = setTimeout(() => void run().then(schedule), deps.intervalMs);
    timer.unref();
  };

  return {
    sweep: (options) => {
      const result = running.then(() => sweep(options));
      running = result.catch(() => undefined);
      return result;
    },
    start() {
      if (!stopped) return;
      stopped = false;
      // The start-up pass takes everything: whatever is marked now was left by an earlier process.
      void run(lease ? undefined : 0).then(schedule);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      await lease?.release().catch((err: unknown) =>
        logger.warn('the repair worker could not give its lease back; it lapses', { err })
      );
    },
  };
}
